/** Escapes written for the control characters that have a short C form. */
const SHORT_ESCAPES: ReadonlyMap<number, string> = new Map([
  [0x09, "\\t"],
  [0x0a, "\\n"],
  [0x0d, "\\r"],
]);

/**
 * `text` with every character that can break or disguise a log line written as a visible escape: C0 controls
 * and DEL (`\n`, `\r`, `\t`, else `\x1b`), C1 controls (`\x85`, `\x9b`: NEL and CSI), the line and paragraph
 * separators (`\u2028`, `\u2029`) and the bidirectional overrides and isolates (`\u202e`, `\u2066`…). A log
 * line built from client-sent values stays one line that shows what was sent. Backslashes are left as they
 * are, so escaping twice changes nothing.
 */
export function escapeControlCharacters(text: string): string {
  let escaped: string | undefined;
  let copiedUpTo = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (!isUnsafe(code)) continue;
    escaped = (escaped ?? "") + text.slice(copiedUpTo, index) + escapeOf(code);
    copiedUpTo = index + 1;
  }
  return escaped === undefined ? text : escaped + text.slice(copiedUpTo);
}

function isUnsafe(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function escapeOf(code: number): string {
  const short = SHORT_ESCAPES.get(code);
  if (short !== undefined) return short;
  const hex = code.toString(16);
  return code <= 0xff ? `\\x${hex.padStart(2, "0")}` : `\\u${hex.padStart(4, "0")}`;
}
