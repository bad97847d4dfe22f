import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import { join } from "node:path";

/** A small tmpfs mounted for a test: a state directory whose disk really fills up. */
export type TinyTmpfs = {
  dir: string;
  /** Writes a filler file until the file system answers ENOSPC. */
  fill(): Promise<void>;
  /** Removes the filler: writes work again. */
  free(): Promise<void>;
  /** Unmounts it and removes the mount point. */
  unmount(): void;
};

const FILLER = ".filler";
const CHUNK = Buffer.alloc(4096, 0x61);

/**
 * Mounts a 64 KiB tmpfs at `dir` (root only, and only where the sandbox allows mounting); the reason when it
 * cannot, so the test is skipped with that reason printed.
 */
export async function mountTinyTmpfs(dir: string): Promise<TinyTmpfs | { skipped: string }> {
  await mkdir(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { skipped: `cannot mount a tmpfs at ${dir}: ${stderr || (error as Error).message}` };
  }
  return {
    dir,
    async fill() {
      const handle = await open(join(dir, FILLER), "a");
      try {
        for (;;) await handle.write(CHUNK);
      } catch (error) {
        if ((error as { code?: unknown }).code !== "ENOSPC") throw error;
      } finally {
        await handle.close();
      }
    },
    async free() {
      await rm(join(dir, FILLER), { force: true });
    },
    unmount() {
      execFileSync("umount", ["-l", dir], { stdio: "pipe" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
