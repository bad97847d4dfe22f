import { randomBytes } from "node:crypto";
import { mkdir, open, unlink } from "node:fs/promises";
import { join } from "node:path";
import { storageFaultReason } from "./storage-unavailable.js";

/** Name prefix of the small file the state-directory probe writes and removes (never a session file). */
export const STORE_PROBE_PREFIX = ".toolsift-probe-";

/** Whether the state directory takes writes; the reason when it does not. */
export type StorageStatus = { writable: true } | { writable: false; reason: string };

/** What the probe writes: a few bytes, so a full file system fails it like it fails a session line. */
const PROBE_CONTENT = "toolsift state directory probe\n";

/**
 * Probes `stateDir` the way a session append uses it: creates the directory if missing (0700), writes a
 * small `.toolsift-probe-*` file, `datasync`s it, and removes it. Never creates a session file.
 */
export async function probeStateDir(stateDir: string): Promise<StorageStatus> {
  const probe = join(stateDir, `${STORE_PROBE_PREFIX}${process.pid}-${randomBytes(6).toString("hex")}`);
  let created = false;
  try {
    await mkdir(stateDir, { recursive: true, mode: 0o700 });
    const handle = await open(probe, "wx", 0o600);
    created = true;
    try {
      await handle.writeFile(PROBE_CONTENT);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    return { writable: true };
  } catch (error) {
    return {
      writable: false,
      reason: `the state directory ${stateDir} cannot be written: ${storageFaultReason(error)}`,
    };
  } finally {
    if (created) await unlink(probe).catch(() => undefined);
  }
}
