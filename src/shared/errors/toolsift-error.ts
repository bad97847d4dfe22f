/** Stable machine-readable error codes; the message says how to recover. */
export type ToolsiftErrorCode =
  | "INVALID_REQUEST"
  | "UNKNOWN_TOOL"
  | "AMBIGUOUS_TOOL"
  | "DIRECT_ONLY_TOOL"
  | "SKILL_NOT_TOOL"
  | "INVALID_ARGUMENTS"
  | "INVALID_OUTPUT_SCHEMA"
  | "OUTPUT_CONTRACT_VIOLATION"
  | "BLOCKED"
  | "TOOL_UNAVAILABLE"
  | "TOOL_FAILED"
  | "CANCELLED"
  | "TIMEOUT"
  | "SCHEDULE_DEADLOCK"
  | "CATALOG_CLOSED"
  | "CONFIG_INVALID"
  | "NAME_CONFLICT"
  | "PROVIDER_FAILED"
  | "PROVIDER_AUTH_FAILED"
  | "STORAGE_UNAVAILABLE"
  | "INTERNAL";

/** The one error class toolsift throws: a stable `code` and a message written for its reader. */
export class ToolsiftError extends Error {
  readonly code: ToolsiftErrorCode;

  constructor(code: ToolsiftErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ToolsiftError";
    this.code = code;
  }
}

/** True when `value` is a ToolsiftError (also across module copies). */
export function isToolsiftError(value: unknown): value is ToolsiftError {
  return (
    value instanceof ToolsiftError ||
    (typeof value === "object" &&
      value !== null &&
      (value as { name?: unknown }).name === "ToolsiftError" &&
      typeof (value as { code?: unknown }).code === "string")
  );
}
