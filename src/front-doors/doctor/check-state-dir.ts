import { randomBytes } from "node:crypto";
import { open, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { DoctorCheck } from "./types.js";

/** Prefix of the probe file doctor creates, and removes at once, to test that the state directory is writable. */
const DOCTOR_PROBE_PREFIX = ".toolsift-doctor-probe-";

const FIX = "set TOOLSIFT_STATE_DIR to a directory you can write, or fix the permissions of this one";

/**
 * Checks that sessions and logs can be written under `stateDir`: creates a probe file there and removes it at
 * once. A state directory that does not exist yet is fine when its nearest existing parent is writable (the
 * gateway creates it); doctor itself never creates it.
 */
export async function checkStateDir(stateDir: string): Promise<DoctorCheck> {
  let directory = stateDir;
  for (;;) {
    const kind = await pathKind(directory);
    if (kind === "directory") break;
    if (kind === "other") {
      return error(`state directory ${stateDir}: ${directory} exists but is not a directory`);
    }
    if (kind instanceof Error) return error(`state directory ${stateDir}: ${directory} ${kind.message}`);
    const parent = dirname(directory);
    if (parent === directory) return error(`state directory ${stateDir}: no part of the path exists`);
    directory = parent;
  }

  const problem = await probeWrite(directory);
  if (problem !== undefined)
    return error(`state directory ${stateDir}: ${directory} is not writable (${problem})`);
  const message =
    directory === stateDir
      ? `state directory ${stateDir} is writable`
      : `state directory ${stateDir} does not exist yet; it will be created in ${directory}, which is writable`;
  return { name: "state-dir", status: "ok", message };
}

function error(message: string): DoctorCheck {
  return { name: "state-dir", status: "error", message, fix: FIX };
}

async function pathKind(path: string): Promise<"directory" | "missing" | "other" | Error> {
  try {
    return (await stat(path)).isDirectory() ? "directory" : "other";
  } catch (caught) {
    const code = (caught as { code?: unknown }).code;
    if (code === "ENOENT") return "missing";
    return new Error(
      code === "EACCES" ? "cannot be read (permission denied)" : `cannot be read (${String(code)})`,
    );
  }
}

/** Creates and removes a probe file; the reason it failed, or undefined when writing works. */
async function probeWrite(directory: string): Promise<string | undefined> {
  const probe = join(directory, `${DOCTOR_PROBE_PREFIX}${process.pid}-${randomBytes(6).toString("hex")}`);
  try {
    const handle = await open(probe, "wx");
    try {
      await handle.writeFile("probe");
    } finally {
      await handle.close();
    }
  } catch (caught) {
    await unlink(probe).catch(() => undefined);
    const code = (caught as { code?: unknown }).code;
    if (code === "EACCES" || code === "EPERM") return "permission denied";
    if (code === "EROFS") return "read-only file system";
    if (code === "ENOSPC") return "no space left";
    return String(code ?? caught);
  }
  await unlink(probe).catch(() => undefined);
  return undefined;
}
