import type { FileHandle } from "node:fs/promises";

/** Leading bytes of a file checked for NUL to tell binary from text. */
const BINARY_SNIFF_BYTES = 8 * 1024;

/** Bytes `read` takes from the file per system call. */
const READ_CHUNK_BYTES = 64 * 1024;

/** What {@link readFileLines} took from a file. */
export interface FileLines {
  bytes: Buffer;
  /** First line returned (1-based). */
  startLine: number;
  /** Lines begun in the returned text (the last may be cut by the byte limit). */
  lineCount: number;
  /** Lines in the file seen before stopping; only meaningful when the read reached the end. */
  linesSeen: number;
  /** Stopped at `maxBytes` in the middle of the requested range. */
  cutAtBytes: boolean;
  /** Stopped because `maxLines` were taken and more text follows. */
  moreLines: boolean;
  /** A NUL byte in the first bytes of the file: it is binary. */
  binary: boolean;
}

/**
 * Streams a file from the start and keeps lines `startLine`… (at most `maxLines`, at most `maxBytes`), so
 * reading a window of a huge file never loads the whole file.
 */
export async function readFileLines(
  handle: FileHandle,
  options: { startLine: number; maxLines: number; maxBytes: number },
): Promise<FileLines> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let line = 1;
  let lineCount = 0;
  let position = 0;
  let inLine = false;
  const chunk = Buffer.alloc(READ_CHUNK_BYTES);
  const result = (extra: Partial<FileLines>): FileLines => ({
    bytes: Buffer.concat(kept),
    startLine: options.startLine,
    lineCount,
    linesSeen: line - (inLine ? 0 : 1),
    cutAtBytes: false,
    moreLines: false,
    binary: false,
    ...extra,
  });

  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return result({});
    const view = chunk.subarray(0, bytesRead);
    if (position === 0 && view.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      return result({ binary: true });
    }
    position += bytesRead;
    let offset = 0;
    while (offset < bytesRead) {
      const newline = view.indexOf(10, offset);
      const end = newline === -1 ? bytesRead : newline + 1;
      if (line >= options.startLine) {
        if (!inLine) {
          if (lineCount >= options.maxLines) return result({ moreLines: true });
          lineCount += 1;
        }
        const room = options.maxBytes - keptBytes;
        if (end - offset > room) {
          kept.push(Buffer.from(view.subarray(offset, offset + room)));
          keptBytes += room;
          return result({ cutAtBytes: true });
        }
        kept.push(Buffer.from(view.subarray(offset, end)));
        keptBytes += end - offset;
      }
      inLine = newline === -1;
      if (!inLine) line += 1;
      offset = end;
    }
  }
}
