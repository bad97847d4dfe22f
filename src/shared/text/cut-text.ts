/**
 * Cuts `text` to at most `maxChars` UTF-16 code units including `marker`, never splitting a surrogate pair.
 * Text that already fits is returned unchanged.
 */
export function cutText(text: string, maxChars: number, marker = "..."): string {
  if (text.length <= maxChars) return text;
  return text.slice(0, cutTextLength(text, maxChars, marker) - marker.length) + marker;
}

/** `cutText(text, maxChars).length` (default marker), computed without building the cut string. */
export function cutTextLength(text: string, maxChars: number, marker = "..."): number {
  if (text.length <= maxChars) return text.length;
  let end = Math.max(0, maxChars - marker.length);
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return end + marker.length;
}

/** Collapses every run of whitespace to one space and trims the ends. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
