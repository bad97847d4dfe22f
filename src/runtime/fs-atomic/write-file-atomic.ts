import { randomBytes } from "node:crypto";
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import path from "node:path";

/** Random bytes in the temp file's name (hex-encoded). */
const TEMP_NAME_RANDOM_BYTES = 6;

/** Code points of the target's name kept in the temp file's name, so that the temp name stays under NAME_MAX. */
const MAX_TEMP_NAME_STEM_CHARS = 32;

/** Permission bits of a new file when the caller names none, before the umask (as `fs.writeFile`). */
const DEFAULT_NEW_FILE_MODE = 0o666;

/** Options of `writeFileAtomic`. */
export type WriteFileAtomicOptions = {
  /**
   * Permission bits the file ends with, set exactly (the umask does not apply): pass a replaced file's mode to
   * keep it. Default: none, so `newFileMode` applies.
   */
  mode?: number;
  /** Permission bits of the file when `mode` is not given, filtered by the umask. Default `0o666`. */
  newFileMode?: number;
};

/**
 * Replaces `file` with `data` so that readers see the old bytes or the new ones, never a mix: a temp file is
 * created exclusively (`O_EXCL`, so a planted symlink is never followed) in the same directory with at most the
 * final permissions, written, flushed to disk, renamed over `file`, and the directory is flushed. A symlink or
 * hard link at `file` is replaced, never written through. On failure the temp file is removed, `file` is
 * untouched, and the Node error (with its `code`) is thrown for the caller to word.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const directory = path.dirname(file);
  const temp = path.join(directory, tempName(path.basename(file)));
  let handle: FileHandle | undefined = await open(
    temp,
    "wx",
    options.mode ?? options.newFileMode ?? DEFAULT_NEW_FILE_MODE,
  );
  try {
    await handle.writeFile(data, "utf8");
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.sync();
    const written = handle;
    handle = undefined;
    await written.close();
    await rename(temp, file);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(directory);
}

/** `.<name>.<pid>.<random>.tmp`, the name cut to a few code points so that a long name still fits. */
function tempName(name: string): string {
  const stem = Array.from(name).slice(0, MAX_TEMP_NAME_STEM_CHARS).join("");
  return `.${stem}.${process.pid}.${randomBytes(TEMP_NAME_RANDOM_BYTES).toString("hex")}.tmp`;
}

/** Makes the rename itself durable; not every platform can open a directory, so failures are ignored. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort only.
  }
}
