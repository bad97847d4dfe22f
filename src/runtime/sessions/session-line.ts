import { messageOf, ToolsiftError } from "../../shared/errors/index.js";
import { SESSION_EVENT_TYPES } from "./parse-session-log.js";
import { redactedJson } from "./redact-secrets.js";
import { takeRedactedLine } from "./redact-session-event.js";
import type { SessionEvent } from "./types.js";

/**
 * The redacted event as one JSON line ending in a newline, as every store keeps it; refuses (INVALID_REQUEST)
 * what cannot be a session event.
 */
export function sessionEventLine(event: SessionEvent): string {
  const type = typeof event === "object" && event !== null ? (event as { type?: unknown }).type : undefined;
  if (typeof type !== "string" || !SESSION_EVENT_TYPES.has(type as SessionEvent["type"])) {
    throw new ToolsiftError(
      "INVALID_REQUEST",
      `Cannot append a session event without a known type (got ${JSON.stringify(type) ?? "none"}): use one of ${[...SESSION_EVENT_TYPES].join(", ")}.`,
    );
  }
  // An event from redactSessionEvent comes with its line made (and redacted) already.
  let json = takeRedactedLine(event);
  if (json !== undefined) return `${json}\n`;
  try {
    json = redactedJson(event);
  } catch (error) {
    throw new ToolsiftError(
      "INVALID_REQUEST",
      `Cannot append a "${type}" session event: it is not JSON-serialisable (${messageOf(error)}). Pass plain data.`,
    );
  }
  return `${json}\n`;
}
