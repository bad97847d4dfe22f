import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ToolsiftError } from "../errors/index.js";
import { NEW_CONFIG_FILE_MODE } from "./limits.js";

/**
 * Replaces `file` with `data` so that readers see the old bytes or the new ones, never a mix: the data goes to
 * a temp file in the same directory, is flushed to disk, then renamed over `file`. On any failure the temp file
 * is removed and `file` is untouched; the error (CONFIG_INVALID) names the file and the reason.
 */
export async function writeFileAtomic(
  file: string,
  data: string,
  options: { mode?: number } = {},
): Promise<void> {
  const directory = dirname(file);
  const temp = join(directory, `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let created = false;
  try {
    const handle = await open(temp, "wx", options.mode ?? NEW_CONFIG_FILE_MODE);
    created = true;
    try {
      await handle.writeFile(data, "utf8");
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
    created = false;
  } catch (error) {
    if (created) await unlink(temp).catch(() => undefined);
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `Could not write ${file} (${describeWriteError(error)}). The file was not changed.`,
      { cause: error },
    );
  }
  await syncDirectory(directory);
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

/** A short reason for a failed write, e.g. `permission denied`. */
export function describeWriteError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case "EACCES":
    case "EPERM":
      return "permission denied; check the permissions of the file and its directory";
    case "ENOSPC":
      return "no space left on the device";
    case "EROFS":
      return "the file system is read-only";
    case "ENOENT":
    case "ENOTDIR":
      return "its directory does not exist";
    default:
      return typeof code === "string" ? code : "unknown error";
  }
}
