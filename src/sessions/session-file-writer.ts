import { constants } from "node:fs";
import { type FileHandle, mkdir, open, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { MAX_OPEN_SESSION_FILES, SESSION_FILE_IDLE_MS } from "./limits.js";

// O_NOFOLLOW is 0 where the platform has none; a symlinked log is then followed.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const EXISTING_FLAGS = constants.O_RDWR | constants.O_APPEND | NO_FOLLOW;
const NEW_FLAGS = EXISTING_FLAGS | constants.O_CREAT | constants.O_EXCL;
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

type OpenFile = { handle: FileHandle; size: number; idle: NodeJS.Timeout | undefined };

function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** Opens `path` for appending; `created` when this call made the file (directories 0700, file 0600). */
async function openForAppend(path: string): Promise<{ handle: FileHandle; created: boolean }> {
  try {
    return { handle: await open(path, EXISTING_FLAGS), created: false };
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  try {
    return { handle: await open(path, NEW_FLAGS, FILE_MODE), created: true };
  } catch (error) {
    // Made by someone else meanwhile (a symlink too: O_NOFOLLOW then refuses it below).
    if (errorCode(error) === "EEXIST") return { handle: await open(path, EXISTING_FLAGS), created: false };
    if (errorCode(error) !== "ENOENT") throw error;
  }
  // The session directory is made only when a file is first created in it.
  await mkdir(dirname(path), { recursive: true, mode: DIRECTORY_MODE });
  try {
    return { handle: await open(path, NEW_FLAGS, FILE_MODE), created: true };
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
    return { handle: await open(path, EXISTING_FLAGS), created: false };
  }
}

/** True when the file's last byte is not a newline (a torn write, by a crash or another writer). */
async function endsTorn(handle: FileHandle, size: number): Promise<boolean> {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] !== NEWLINE;
}

async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

/**
 * A writer that keeps up to MAX_OPEN_SESSION_FILES log files open (each closed after SESSION_FILE_IDLE_MS
 * without writes, least recently used first past the bound), so a run's lines cost a `stat` and a write each
 * batch (and a `datasync` when asked) instead of an open and a close too. Before each write the file's size is compared
 * with what this writer last left: a file changed meanwhile is checked for a torn last line, which gets a
 * newline first. A symlinked file is refused (O_NOFOLLOW). A failed write closes the file (the next write
 * opens and checks it afresh) and, when this writer created it and it is still empty, removes it.
 */
export function createSessionFileWriter(): SessionFileWriter {
  const files = new Map<string, OpenFile>();
  const busy = new Set<string>();

  const close = (path: string) => {
    const file = files.get(path);
    if (!file) return;
    files.delete(path);
    if (file.idle) clearTimeout(file.idle);
    void file.handle.close().catch(() => undefined);
  };

  const keepOpen = (path: string, file: OpenFile) => {
    files.delete(path);
    files.set(path, file);
    file.idle = setTimeout(() => {
      if (!busy.has(path)) close(path);
    }, SESSION_FILE_IDLE_MS);
    file.idle.unref();
    for (const oldest of files.keys()) {
      if (files.size <= MAX_OPEN_SESSION_FILES) break;
      if (!busy.has(oldest)) close(oldest);
    }
  };

  return {
    async append(path, text, sync) {
      busy.add(path);
      let file = files.get(path);
      if (file?.idle) clearTimeout(file.idle);
      let created = false;
      try {
        let size = -1;
        if (file) {
          const stats = await file.handle.stat();
          size = stats.size;
          // Removed or replaced since the last write: write to what the path names now.
          if (stats.nlink === 0) {
            close(path);
            file = undefined;
          }
        }
        if (!file) {
          const opened = await openForAppend(path);
          created = opened.created;
          file = { handle: opened.handle, size: -1, idle: undefined };
          files.set(path, file);
          size = created ? 0 : (await file.handle.stat()).size;
        }
        const torn = size !== file.size && (await endsTorn(file.handle, size));
        const data = Buffer.from(torn ? `\n${text}` : text, "utf8");
        await writeAll(file.handle, data);
        if (sync) await file.handle.datasync();
        file.size = size + data.length;
        keepOpen(path, file);
      } catch (error) {
        if (file) {
          if (created) await removeIfEmpty(file.handle, path);
          close(path);
        }
        throw error;
      } finally {
        busy.delete(path);
      }
    },
  };
}

async function removeIfEmpty(handle: FileHandle, path: string): Promise<void> {
  try {
    if ((await handle.stat()).size === 0) await unlink(path);
  } catch {
    // The append's own error is the one reported.
  }
}
