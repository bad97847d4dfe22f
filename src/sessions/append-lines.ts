import { constants } from "node:fs";
import { type FileHandle, mkdir, open, unlink } from "node:fs/promises";
import { dirname } from "node:path";

// O_NOFOLLOW is 0 where the platform has none; a symlinked log is then followed.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const EXISTING_FLAGS = constants.O_RDWR | constants.O_APPEND | NO_FOLLOW;
const NEW_FLAGS = EXISTING_FLAGS | constants.O_CREAT | constants.O_EXCL;
const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;
const NEWLINE = 0x0a;

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
  await mkdir(dirname(path), { recursive: true, mode: DIRECTORY_MODE });
  try {
    return { handle: await open(path, NEW_FLAGS, FILE_MODE), created: true };
  } catch (error) {
    // Made by someone else meanwhile (a symlink too: O_NOFOLLOW then refuses it below).
    if (errorCode(error) !== "EEXIST") throw error;
    return { handle: await open(path, EXISTING_FLAGS), created: false };
  }
}

/**
 * Appends `text` (whole lines) to `path`, on a new line if the file ends in a torn write, and `datasync`s it
 * before resolving. A symlinked file is refused (O_NOFOLLOW). When the write fails and this call created the
 * file, an empty file is removed, so a state directory that cannot be written leaves no empty logs behind.
 */
export async function appendLines(path: string, text: string): Promise<void> {
  const { handle, created } = await openForAppend(path);
  let written = false;
  try {
    const { size } = await handle.stat();
    let prefix = "";
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== NEWLINE) prefix = "\n";
    }
    await handle.appendFile(prefix + text, "utf8");
    await handle.datasync();
    written = true;
  } finally {
    if (!written && created) await removeIfEmpty(handle, path);
    await handle.close();
  }
}

async function removeIfEmpty(handle: FileHandle, path: string): Promise<void> {
  try {
    if ((await handle.stat()).size === 0) await unlink(path);
  } catch {
    // The append's own error is the one reported.
  }
}
