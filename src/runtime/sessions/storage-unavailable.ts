import { messageOf, ToolsiftError } from "../../shared/errors/index.js";

/** fs error codes that mean the state directory cannot take writes (full, read-only, not a directory…). */
const STORAGE_ERROR_CODES: ReadonlySet<string> = new Set([
  "ENOSPC",
  "EDQUOT",
  "EROFS",
  "EACCES",
  "EPERM",
  "ENOTDIR",
  "EEXIST",
  "EIO",
]);

function errorCode(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

/** True for an fs error that says the state directory as a whole cannot be written. */
export function isStorageFault(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && STORAGE_ERROR_CODES.has(code);
}

/** A short reason for an fs error, for operators: `no space left on device (ENOSPC)`. */
export function storageFaultReason(error: unknown): string {
  const code = errorCode(error);
  switch (code) {
    case "ENOSPC":
      return "no space left on device (ENOSPC)";
    case "EDQUOT":
      return "disk quota exceeded (EDQUOT)";
    case "EROFS":
      return "read-only file system (EROFS)";
    case "EACCES":
    case "EPERM":
      return `permission denied (${code})`;
    case "ENOTDIR":
    case "EEXIST":
      return `a part of the path is a file, not a directory (${code})`;
    default:
      return messageOf(error);
  }
}

/** What an operator does about a state directory that cannot be written. */
export const STORAGE_FIX =
  "Free space there or make it writable (or set TOOLSIFT_STATE_DIR to a writable directory); runs are accepted again as soon as it can be written.";

/**
 * STORAGE_UNAVAILABLE: the session log cannot be written under `stateDir`. The message names the directory,
 * the reason and the fix; the gateway answers it with 503 `storage_unavailable`.
 */
export function storageUnavailable(stateDir: string, error: unknown): ToolsiftError {
  return new ToolsiftError(
    "STORAGE_UNAVAILABLE",
    `The session log cannot be written in the state directory ${stateDir}: ${storageFaultReason(error)}. ${STORAGE_FIX}`,
    { cause: error },
  );
}
