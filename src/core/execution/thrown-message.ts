import { safeRead } from "../../shared/schema/index.js";

/** Fallback text for a thrown value that carries no readable message. */
export const UNKNOWN_ERROR_TEXT = "unknown error";

/**
 * The message of anything a tool or hook threw, read without trusting it: an Error's `message` (a
 * throwing getter or a Proxy yields the fallback), a string as is, other primitives via `String`.
 * Never throws and never reads `cause`, `code` or `status`.
 */
export function thrownMessage(value: unknown): string {
  if (typeof value === "string") return value.length > 0 ? value : UNKNOWN_ERROR_TEXT;
  if (value === undefined || value === null) return UNKNOWN_ERROR_TEXT;
  if (typeof value === "object" || typeof value === "function") {
    const message = safeRead(value, "message");
    return typeof message === "string" && message.length > 0 ? message : UNKNOWN_ERROR_TEXT;
  }
  try {
    return String(value);
  } catch {
    return UNKNOWN_ERROR_TEXT;
  }
}
