/**
 * The camelCase / snake_case / digit parts of an ASCII word (letters, digits and `_`) as `[start, end)` pairs,
 * exactly the parts `wordForms` finds with its regular expression (a plural acronym `URLs`, an acronym `URL`
 * before a capitalised part, a capitalised or lowercase run, a number), found by one pass over the character
 * codes. `undefined` when the word is not such a compound: not ASCII, or a single part that is the whole word
 * (`Weather`, `URL`, `42`), or no part at all (`__`). Used to tokenise a new compound through the word table,
 * part by part, instead of making a string per part.
 */
export function asciiCompoundParts(word: string): number[] | undefined {
  const parts: number[] = [];
  const length = word.length;
  let index = 0;
  while (index < length) {
    const code = word.charCodeAt(index);
    if (code >= 128) return undefined;
    if (code === UNDERSCORE) index += 1;
    else if (isUpper(code)) index = upperPart(word, index, length, parts);
    else if (isLower(code)) index = pushRun(word, index, length, parts, isLower);
    else if (isDigit(code)) index = pushRun(word, index, length, parts, isDigit);
    else return undefined;
  }
  if (parts.length === 0) return undefined;
  if (parts.length === 2 && parts[0] === 0 && parts[1] === length) return undefined;
  return parts;
}

const UNDERSCORE = 95;
const LOWER_S = 115;

/** A part starting with a capital: `URLs`, `URL` (before `Parser`), `Parser`, or a lone capital. */
function upperPart(word: string, start: number, length: number, parts: number[]): number {
  let end = start;
  while (end < length && isUpper(word.charCodeAt(end))) end += 1;
  const run = end - start;
  const next = end < length ? word.charCodeAt(end) : -1;
  if (run >= 2 && next === LOWER_S && !(end + 1 < length && isLower(word.charCodeAt(end + 1)))) {
    return push(parts, start, end + 1);
  }
  if (!isLower(next)) return push(parts, start, end);
  if (run >= 2) return push(parts, start, end - 1);
  return pushRun(word, end, length, parts, isLower, start);
}

/** A run of characters of one class from `from` (the part starts at `start`, a capital before the run). */
function pushRun(
  word: string,
  from: number,
  length: number,
  parts: number[],
  inRun: (code: number) => boolean,
  start = from,
): number {
  let end = from;
  while (end < length && inRun(word.charCodeAt(end))) end += 1;
  return push(parts, start, end);
}

function push(parts: number[], start: number, end: number): number {
  parts.push(start, end);
  return end;
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
