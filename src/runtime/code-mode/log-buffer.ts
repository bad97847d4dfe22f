/** The line that ends a cell's logs when its console output went past the cap. */
export function logsTruncatedLine(maxLogBytes: number): string {
  return `[logs truncated: the cell wrote more than ${maxLogBytes} bytes of console output]`;
}

const PREFIX: Readonly<Record<string, string>> = { log: "", info: "", warn: "[warn] ", error: "[error] " };

/**
 * A cell's console output, bounded: lines are kept while their UTF-8 bytes (plus one per line break) fit in
 * the cap; the line that crosses it is cut and followed by the truncation marker; later output is dropped.
 * The cell keeps running: a noisy cell loses output, not its result. `warn` and `error` lines are prefixed.
 */
export class LogBuffer {
  readonly #maxBytes: number;
  readonly #lines: string[] = [];
  #bytes = 0;
  #truncated = false;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Adds one console call's text. */
  add(level: string, text: string): void {
    if (this.#truncated) return;
    const line = (PREFIX[level] ?? "") + text;
    const bytes = Buffer.byteLength(line) + 1;
    if (this.#bytes + bytes <= this.#maxBytes) {
      this.#lines.push(line);
      this.#bytes += bytes;
      return;
    }
    const kept = cutToBytes(line, this.#maxBytes - this.#bytes - 1);
    if (kept.length > 0) this.#lines.push(kept);
    this.#lines.push(logsTruncatedLine(this.#maxBytes));
    this.#truncated = true;
  }

  /** A copy of the lines so far. */
  lines(): string[] {
    return [...this.#lines];
  }
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
function cutToBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return "";
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    const size = Buffer.byteLength(character);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += character.length;
  }
  return text.slice(0, end);
}
