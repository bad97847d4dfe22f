import { join, sep } from "node:path";
import { ToolsiftError } from "../../shared/errors/index.js";
import { MAX_QUOTED_KEY_CHARS, MAX_SESSION_KEY_CHARS } from "./limits.js";

/** File extension of a session log. */
export const SESSION_FILE_EXTENSION = ".jsonl";

/** Allowed agent ids and session keys: a letter or digit, then up to 127 of `A-Z a-z 0-9 . _ -`. */
const SESSION_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** True for a usable agent id or session key (`SESSION_KEY_PATTERN`): safe as one path segment. */
export function isValidSessionKey(value: unknown): value is string {
  return typeof value === "string" && SESSION_KEY_PATTERN.test(value);
}

/** A printable, bounded rendering of a rejected key (control characters escaped by JSON). */
function quoteKey(value: unknown): string {
  if (typeof value !== "string") return `a ${value === null ? "null" : typeof value}`;
  const cut = value.length > MAX_QUOTED_KEY_CHARS ? `${value.slice(0, MAX_QUOTED_KEY_CHARS)}...` : value;
  return JSON.stringify(cut);
}

/** Throws INVALID_REQUEST naming the allowed form unless `value` is a valid agent id / session key. */
export function assertValidSessionKey(
  kind: "agent id" | "session key",
  value: unknown,
): asserts value is string {
  if (isValidSessionKey(value)) return;
  throw new ToolsiftError(
    "INVALID_REQUEST",
    `Invalid ${kind} ${quoteKey(value)}: use 1 to ${MAX_SESSION_KEY_CHARS} characters from A-Z, a-z, 0-9, ".", "_" and "-", starting with a letter or digit.`,
  );
}

/** The log file of one session: `<stateDir>/agents/<agentId>/sessions/<sessionKey>.jsonl` (both validated). */
export function sessionLogPath(stateDir: string, agentId: string, sessionKey: string): string {
  return sessionLogPaths(stateDir)(agentId, sessionKey);
}

/**
 * sessionLogPath for one state directory, which is normalised once: a store builds a path per append. The
 * same path as `join` gives, since a valid id or key is one plain path segment (no separator, not `.`/`..`).
 */
export function sessionLogPaths(stateDir: string): (agentId: string, sessionKey: string) => string {
  const agentsDir = join(stateDir, "agents");
  return (agentId, sessionKey) => {
    assertValidSessionKey("agent id", agentId);
    assertValidSessionKey("session key", sessionKey);
    return `${agentsDir}${sep}${agentId}${sep}sessions${sep}${sessionKey}${SESSION_FILE_EXTENSION}`;
  };
}
