import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import path from "node:path";

/**
 * Writes `data` to `target` atomically: a new temp file in the same directory (created exclusively, so
 * it never follows a planted symlink), then a rename over the target. Readers see the old file or the new
 * one, never half of it; a final symlink or hard link at `target` is replaced, never written through.
 * `mode` keeps an existing file's permissions.
 */
export async function atomicWrite(target: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const temp = path.join(path.dirname(target), `.toolsift-${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", 0o666);
  let renamed = false;
  try {
    await handle.writeFile(data);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    await rename(temp, target);
    renamed = true;
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
    }
  }
}
