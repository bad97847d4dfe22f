import fs, { closeSync, constants, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { mkdir, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { MAX_OPEN_SESSION_FILES, SESSION_FILE_IDLE_MS } from "./limits.js";

// O_NOFOLLOW is 0 where the platform has none; a symlinked log is then followed.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW;
const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;
const NEWLINE = 0x0a;

/** Writes whole lines to session log files, keeping recently used files open. */
export interface SessionFileWriter {
  /**
   * Appends `text` (whole lines) to `path`, and `datasync`s the file when `sync` is set; never called twice
   * at once for one path.
   */
  append(path: string, text: string, sync: boolean): Promise<void>;
}

/** An open log file: its descriptor, the size this writer last left it at, and its idle timer. */
type OpenFile = { fd: number; size: number; idle: NodeJS.Timeout | undefined };

function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

/**
 * Opens `path` for appending, creating it (0600) when missing in one call, and its directory (0700) only
 * when a file is first created in it. The open is synchronous, like the writes: an open (or create) in the
 * state directory is a metadata operation of a few microseconds, while the promise form is a thread-pool
 * round trip (with the close, about 0.15 ms of CPU per session file on 2 busy cores).
 */
async function openForAppend(path: string): Promise<number> {
  try {
    return openSync(path, APPEND_FLAGS, FILE_MODE);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  await mkdir(dirname(path), { recursive: true, mode: DIRECTORY_MODE });
  return openSync(path, APPEND_FLAGS, FILE_MODE);
}

/**
 * The size of an open file, and whether it is still linked. Synchronous on purpose: an `fstat` of an open
 * descriptor reads the in-memory inode (about 3 µs), while the promise form costs a thread-pool round
 * trip (about 40 µs of CPU, more on 2 busy cores), once per batch.
 */
function statOpen(fd: number): { size: number; linked: boolean } {
  const stats = fstatSync(fd);
  return { size: stats.size, linked: stats.nlink > 0 };
}

/** True when the file's last byte is not a newline (a torn write, by a crash or another writer). */
function endsTorn(fd: number, size: number): boolean {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== NEWLINE;
}

/**
 * Writes all of `data` at the end of the file, synchronously, as loggers commonly do for small appends (a
 * session line is a few KB, handed to the page cache in microseconds): the promise form costs a thread-pool
 * round trip per batch, which on 2 busy cores was about 1.3 ms of gateway CPU per run
 * (`npm run bench -- gateway-throughput`). The `datasync` of a run summary, which waits for the disk, stays
 * asynchronous.
 */
function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
}

/** Flushes the file's data to the disk, on the thread pool (it waits for the disk). */
function datasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    // Looked up on the module object at call time, so a test can count the flushes.
    fs.fdatasync(fd, (error) => (error ? reject(error) : resolve()));
  });
}

/** Closes a descriptor this writer owns; a close cannot fail in a way a log could act on. */
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // EBADF/EIO on close: the descriptor is gone either way.
  }
}

/**
 * A writer that keeps up to MAX_OPEN_SESSION_FILES log files open (each closed after SESSION_FILE_IDLE_MS
 * without writes, least recently used first past the bound), so a run's lines cost a write each batch (and a
 * `datasync` when asked) instead of an open and a close too. Before each write the file's size is compared
 * with what this writer last left: a file changed meanwhile is checked for a torn last line, which gets a
 * newline first. A symlinked file is refused (O_NOFOLLOW). A failed write closes the file (the next write
 * opens and checks it afresh) and, when that write opened the file and left it empty, removes it.
 */
export function createSessionFileWriter(): SessionFileWriter {
  const files = new Map<string, OpenFile>();
  const busy = new Set<string>();

  const close = (path: string) => {
    const file = files.get(path);
    if (!file) return;
    files.delete(path);
    if (file.idle) clearTimeout(file.idle);
    closeQuietly(file.fd);
  };

  const keepOpen = (path: string, file: OpenFile) => {
    files.delete(path);
    files.set(path, file);
    if (file.idle) file.idle.refresh();
    else {
      file.idle = setTimeout(() => {
        if (!busy.has(path)) close(path);
      }, SESSION_FILE_IDLE_MS);
      file.idle.unref();
    }
    for (const oldest of files.keys()) {
      if (files.size <= MAX_OPEN_SESSION_FILES) break;
      if (!busy.has(oldest)) close(oldest);
    }
  };

  return {
    async append(path, text, sync) {
      busy.add(path);
      let file = files.get(path);
      let opened = false;
      try {
        let size = -1;
        if (file) {
          const stats = statOpen(file.fd);
          size = stats.size;
          // Removed or replaced since the last write: write to what the path names now.
          if (!stats.linked) {
            close(path);
            file = undefined;
          }
        }
        if (!file) {
          file = { fd: await openForAppend(path), size: -1, idle: undefined };
          opened = true;
          files.set(path, file);
          size = statOpen(file.fd).size;
        }
        const torn = size !== file.size && endsTorn(file.fd, size);
        const data = Buffer.from(torn ? `\n${text}` : text, "utf8");
        writeAll(file.fd, data);
        if (sync) await datasync(file.fd);
        file.size = size + data.length;
        keepOpen(path, file);
      } catch (error) {
        if (file) {
          // A file this write opened and left empty (most likely created by it) is removed: a full or
          // read-only state directory leaves no empty log behind.
          if (opened) await removeIfEmpty(file.fd, path);
          close(path);
        }
        throw error;
      } finally {
        busy.delete(path);
      }
    },
  };
}

async function removeIfEmpty(fd: number, path: string): Promise<void> {
  try {
    if (fstatSync(fd).size === 0) await unlink(path);
  } catch {
    // The append's own error is the one reported.
  }
}
