import { messageOf, ToolsiftError } from "../../shared/errors/index.js";

/** What to do when the state database cannot be reached. */
export const POSTGRES_FIX =
  "Check that PostgreSQL is running and reachable at state.url (or TOOLSIFT_STATE_URL), and that its user may connect; `toolsift state status` checks it.";

/**
 * SQLSTATE classes that mean "the database cannot serve us now", not "this statement is wrong": connection
 * faults (08), refused credentials (28), a missing database (3D), exhausted resources (53), an operator's
 * shutdown or cancel (57), system errors (58).
 */
const UNAVAILABLE_SQLSTATE_CLASSES = ["08", "28", "3D", "53", "57", "58"];

/** Node socket errors a lost or refused connection throws. */
const CONNECTION_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** True when `error` says the database is unreachable or unable to serve (not a bad statement). */
export function isPostgresUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (CONNECTION_ERROR_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/u.test(code)) return UNAVAILABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2));
  }
  const message = messageOf(error);
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down)|terminating connection/iu.test(
    message,
  );
}

/** The URL with its password hidden, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unparsable URL)";
  }
}

/**
 * STORAGE_UNAVAILABLE for a database fault while doing `action`: names the database (password hidden), the
 * reason and the fix. The gateway answers it with 503 `storage_unavailable`.
 */
export function postgresUnavailable(url: string, action: string, error: unknown): ToolsiftError {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  // Refused credentials (28…) or a missing database (3D…): the fix is in the URL, not the server's health.
  if (typeof code === "string" && (code.startsWith("28") || code.startsWith("3D"))) {
    return new ToolsiftError(
      "STORAGE_UNAVAILABLE",
      `The state database ${redactedUrl(url)} refused toolsift (${messageOf(error)}). Check the role, password and database name in state.url (or TOOLSIFT_STATE_URL), and that the role may connect and create tables.`,
      { cause: error },
    );
  }
  return new ToolsiftError(
    "STORAGE_UNAVAILABLE",
    `The state database ${redactedUrl(url)} is unavailable (${action}: ${messageOf(error)}). ${POSTGRES_FIX}`,
    { cause: error },
  );
}
