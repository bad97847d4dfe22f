/** Code points per piece when the mock streams function-call arguments (text is streamed word by word). */
export const STREAM_ARGUMENT_PIECE_CHARS = 8;

/**
 * Text cut into the pieces the mock streams: one word with the whitespace after it per piece (leading
 * whitespace is a piece of its own). The pieces join back to the text exactly; "" has no pieces.
 */
export function wordPieces(text: string): string[] {
  return text.match(/\s+(?=\S)|\S+\s*|\s+$/gu) ?? [];
}

/**
 * Function-call arguments cut into pieces of `STREAM_ARGUMENT_PIECE_CHARS` code points (never inside a
 * surrogate pair). The pieces join back to the arguments exactly; "" has no pieces.
 */
export function argumentPieces(text: string): string[] {
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let start = 0; start < points.length; start += STREAM_ARGUMENT_PIECE_CHARS)
    pieces.push(points.slice(start, start + STREAM_ARGUMENT_PIECE_CHARS).join(""));
  return pieces;
}
