import { lstat, mkdir } from "node:fs/promises";
import path from "node:path";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { writeFileAtomic } from "../fs-atomic/index.js";
import { ensureWorkspace } from "./open-workspace-file.js";
import { readArguments } from "./read-arguments.js";
import { resolveInsideWorkspace } from "./resolve-inside-workspace.js";
import { showPath } from "./show-path.js";
import { errorCode, errorResult, failureText, textResult } from "./tool-result.js";
import type { CoreToolsSettings } from "./types.js";

/** `write`: creates or replaces a workspace file (atomically), creating parent folders inside the workspace. */
export function createWriteTool(settings: CoreToolsSettings): ToolDefinition {
  return {
    name: "write",
    label: "Write file",
    description:
      "Create or overwrite a text file in the workspace with `content`; missing parent folders are created. " +
      `It replaces the whole file (use edit to change part of one). At most ${settings.maxWriteBytes} bytes.`,
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", minLength: 1, description: "File path relative to the workspace root." },
        content: { type: "string", description: "The complete new content of the file." },
      },
      required: ["path", "content"],
      additionalProperties: false,
    },
    origin: { kind: "core", owner: "core" },
    executionMode: "sequential",
    execute: async (args) => {
      const parsed = readArguments("write", args, {
        path: { type: "string", required: true },
        content: { type: "string", required: true },
      });
      if (!parsed.ok) return errorResult(parsed.message);
      const requested = parsed.values.path as string;
      const content = parsed.values.content as string;
      const bytes = Buffer.byteLength(content, "utf8");
      if (bytes > settings.maxWriteBytes) {
        return errorResult(
          `Content is ${bytes} bytes; write takes at most ${settings.maxWriteBytes} bytes. Write a smaller file.`,
        );
      }
      const workspaceProblem = await ensureWorkspace(settings.workspace);
      if (workspaceProblem !== undefined) return errorResult(workspaceProblem);
      const outcome = await writeInsideWorkspace(settings.workspace, requested, content);
      if (!outcome.ok) return errorResult(outcome.reason);
      const verb = outcome.created ? "Created" : "Wrote";
      return textResult(`${verb} ${showPath(requested)} (${bytes} bytes).`, {
        bytes,
        created: outcome.created,
      });
    },
  };
}

/**
 * Writes `data` to a workspace path: confinement checked, parents created, then checked again (a parent
 * created meanwhile must still resolve inside), then an atomic replace. Shared by `write` and `edit`.
 */
export async function writeInsideWorkspace(
  workspace: string,
  requested: string,
  data: string,
): Promise<{ ok: true; created: boolean } | { ok: false; reason: string }> {
  const first = await resolveInsideWorkspace(workspace, requested);
  if (!first.ok) return first;
  if (first.path === first.root) {
    return { ok: false, reason: `${showPath(requested)} is the workspace folder itself; give a file path.` };
  }
  try {
    let mode: number | undefined;
    if (first.exists) {
      const stats = await lstat(first.path);
      if (stats.isDirectory()) {
        return { ok: false, reason: `${showPath(requested)} is a directory; give a file path inside it.` };
      }
      if (!stats.isFile()) return { ok: false, reason: `${showPath(requested)} is not a regular file.` };
      mode = stats.mode & 0o7777;
    } else {
      await mkdir(path.dirname(first.path), { recursive: true });
    }
    const second = await resolveInsideWorkspace(workspace, requested);
    if (!second.ok) return second;
    if (second.path !== first.path) {
      return {
        ok: false,
        reason: `Path ${showPath(requested)} changed while it was being written; try again.`,
      };
    }
    await writeFileAtomic(second.path, data, mode === undefined ? {} : { mode });
    return { ok: true, created: !first.exists };
  } catch (error) {
    const code = errorCode(error);
    const hint =
      code === "ENOTDIR" || code === "EEXIST"
        ? " (a part of the path is a file, not a folder)"
        : ` (${failureText(error)})`;
    return { ok: false, reason: `File ${showPath(requested)} cannot be written${hint}.` };
  }
}
