import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { MAX_PATH_CHARS, MAX_PATH_COMPONENT_BYTES } from "./limits.js";
import { showPath } from "./show-path.js";
import { errorCode } from "./tool-result.js";
import type { WorkspacePath } from "./types.js";

/**
 * Resolves a path a model gave to a real path inside `workspace`, or refuses it. Refused: `..` escapes,
 * absolute paths outside the workspace, NUL bytes, empty or over-long paths, and any symlink (in a parent
 * directory or as the target) whose real path leaves the workspace, or that points nowhere. An absolute
 * path inside the workspace is accepted. `~` is not expanded: `~/x` is the folder `~` in the workspace.
 * Never throws.
 */
export async function resolveInsideWorkspace(workspace: string, requested: string): Promise<WorkspacePath> {
  const textProblem = pathTextProblem(requested);
  if (textProblem !== undefined) return { ok: false, reason: textProblem };

  const base = path.resolve(workspace);
  let root: string;
  try {
    root = await realpath(base);
  } catch {
    return { ok: false, reason: `The workspace ${showPath(base)} does not exist or cannot be read.` };
  }
  const relative = workspaceRelative(base, root, requested);
  if (relative === undefined) return { ok: false, reason: outsideReason(requested) };

  const missing: string[] = [];
  let current = path.join(root, relative);
  for (;;) {
    let real: string;
    try {
      real = await realpath(current);
    } catch (error) {
      const code = errorCode(error);
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        return { ok: false, reason: `Path ${showPath(requested)} cannot be resolved (${code ?? "error"}).` };
      }
      if (await isPresent(current)) {
        return {
          ok: false,
          reason: `Path ${showPath(requested)} goes through a symbolic link that points nowhere; use another path.`,
        };
      }
      const parent = path.dirname(current);
      if (parent === current || !isInside(root, parent))
        return { ok: false, reason: outsideReason(requested) };
      missing.unshift(path.basename(current));
      current = parent;
      continue;
    }
    if (!isInside(root, real)) return { ok: false, reason: outsideReason(requested) };
    return { ok: true, path: path.join(real, ...missing), root, exists: missing.length === 0 };
  }
}

/** True when `candidate` is `root` or below it. */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return (
    relative === "" ||
    (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}

function outsideReason(requested: string): string {
  return (
    `Path ${showPath(requested)} is outside the workspace. ` +
    'Use a path relative to the workspace root, e.g. "notes/todo.md".'
  );
}

/** Why the text of a path is refused before touching the file system, if it is. */
function pathTextProblem(requested: unknown): string | undefined {
  if (typeof requested !== "string") return 'The path must be a string, e.g. "notes/todo.md".';
  if (requested.length === 0) {
    return 'The path is empty. Give a path relative to the workspace root, e.g. "notes/todo.md".';
  }
  if (requested.includes("\0")) return `Path ${showPath(requested)} contains a NUL byte; remove it.`;
  if (requested.length > MAX_PATH_CHARS) {
    return `Path ${showPath(requested)} is too long (${requested.length} characters; at most ${MAX_PATH_CHARS}).`;
  }
  if (requested.split("/").some((part) => Buffer.byteLength(part, "utf8") > MAX_PATH_COMPONENT_BYTES)) {
    return `Path ${showPath(requested)} has a name longer than ${MAX_PATH_COMPONENT_BYTES} bytes; use shorter names.`;
  }
  return undefined;
}

/**
 * The requested path relative to the workspace, normalised lexically (so `a/../b` is `b` and the file system
 * never sees a `..`), or undefined when it leaves the workspace. An absolute path may name the workspace by
 * its configured path or its real path.
 */
function workspaceRelative(base: string, root: string, requested: string): string | undefined {
  if (path.isAbsolute(requested)) {
    const absolute = path.resolve(requested);
    for (const prefix of [base, root]) {
      if (isInside(prefix, absolute)) return path.relative(prefix, absolute);
    }
    return undefined;
  }
  const absolute = path.resolve(base, requested);
  return isInside(base, absolute) ? path.relative(base, absolute) : undefined;
}

/** Whether something (a dangling symlink, typically) exists at `target` without following it. */
async function isPresent(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch {
    return false;
  }
}
