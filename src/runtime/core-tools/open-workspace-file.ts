import { constants, type FileHandle, lstat, mkdir, open } from "node:fs/promises";
import { resolveInsideWorkspace } from "./resolve-inside-workspace.js";
import { showPath } from "./show-path.js";
import { errorCode, failureText } from "./tool-result.js";

/** An existing regular file inside the workspace, opened for reading, or why it cannot be. */
export type OpenedFile =
  | { ok: true; handle: FileHandle; path: string; size: number }
  | { ok: false; reason: string };

/**
 * Creates the workspace when missing (core tools may be the first to use it). Answers a problem text, or
 * undefined when the workspace is there.
 */
export async function ensureWorkspace(workspace: string): Promise<string | undefined> {
  try {
    await mkdir(workspace, { recursive: true });
    return undefined;
  } catch (error) {
    return `The workspace ${showPath(workspace)} cannot be created (${failureText(error)}); ask the operator to fix agents.defaults.workspace.`;
  }
}

/**
 * Opens an existing regular file inside the workspace for reading. Directories, devices and FIFOs are
 * refused before opening (a FIFO would block); the file is opened without following a final symlink, so a
 * link swapped in after the check is refused too. `missingHint` is added to the message for a missing file.
 */
export async function openWorkspaceFile(
  workspace: string,
  requested: string,
  missingHint = "",
): Promise<OpenedFile> {
  const resolved = await resolveInsideWorkspace(workspace, requested);
  if (!resolved.ok) return resolved;
  if (!resolved.exists) {
    return {
      ok: false,
      reason: `File ${showPath(requested)} does not exist in the workspace.${missingHint}`,
    };
  }
  try {
    const stats = await lstat(resolved.path);
    if (stats.isDirectory()) {
      return {
        ok: false,
        reason: `${showPath(requested)} is a directory; give the path of a file inside it.`,
      };
    }
    if (!stats.isFile()) return { ok: false, reason: `${showPath(requested)} is not a regular file.` };
    const handle = await open(
      resolved.path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    const opened = await handle.stat();
    if (!opened.isFile()) {
      await handle.close();
      return { ok: false, reason: `${showPath(requested)} is not a regular file.` };
    }
    return { ok: true, handle, path: resolved.path, size: opened.size };
  } catch (error) {
    const code = errorCode(error);
    if (code === "ELOOP")
      return { ok: false, reason: `Path ${showPath(requested)} is outside the workspace.` };
    return { ok: false, reason: `File ${showPath(requested)} cannot be read (${failureText(error)}).` };
  }
}
