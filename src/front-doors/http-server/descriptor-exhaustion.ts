/** Error codes of a process (EMFILE) or system (ENFILE) out of file descriptors. */
const EXHAUSTION_CODES: ReadonlySet<string> = new Set(["EMFILE", "ENFILE"]);
/** The same codes as they appear in messages that lost the `code` field on the way. */
const EXHAUSTION_TEXT = /\bE[MN]FILE\b/u;
/** Deepest `cause` chain followed. */
const MAX_CAUSE_DEPTH = 8;

/**
 * The code (`EMFILE` or `ENFILE`) when `error`, or an error in its `cause` chain, says the process or the
 * system ran out of file descriptors; else undefined. Such an error is the server being full, not a bug:
 * it is answered 503 with `Retry-After` and logged once, not as a stack per request.
 */
export function descriptorExhaustion(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current !== undefined && current !== null; depth += 1) {
    if (typeof current === "string") return EXHAUSTION_TEXT.exec(current)?.[0];
    if (typeof current !== "object") return undefined;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && EXHAUSTION_CODES.has(code)) return code;
    if (typeof message === "string") {
      const found = EXHAUSTION_TEXT.exec(message)?.[0];
      if (found !== undefined) return found;
    }
    current = cause;
  }
  return undefined;
}
