import { cutText } from "../../shared/text/index.js";
import { collectSecretValues, redactKnownValues, redactSecrets, redactText } from "../sessions/index.js";
import { MAX_CAPTURED_CONTENT_CHARS } from "./limits.js";

/**
 * Tool arguments as span text, redacted like the session log: secret-named keys and secret shapes
 * hidden, then cut to MAX_CAPTURED_CONTENT_CHARS. Only for `telemetry.captureToolContent`.
 */
export function capturedArguments(args: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(redactSecrets(args)) ?? "null";
  } catch {
    text = "[unserialisable]";
  }
  return cutText(redactText(text), MAX_CAPTURED_CONTENT_CHARS);
}

/** A tool's result text as span text: the secret values of its arguments and secret shapes hidden, then cut. */
export function capturedResult(text: string, args: unknown): string {
  const known = collectSecretValues(args);
  return cutText(redactText(redactKnownValues(text, known)), MAX_CAPTURED_CONTENT_CHARS);
}
