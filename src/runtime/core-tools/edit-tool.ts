import type { ToolDefinition } from "../../core/catalog/index.js";
import { ensureWorkspace, openWorkspaceFile } from "./open-workspace-file.js";
import { readArguments } from "./read-arguments.js";
import { showPath } from "./show-path.js";
import { errorResult, failureText, textResult } from "./tool-result.js";
import type { CoreToolsSettings } from "./types.js";
import { writeInsideWorkspace } from "./write-tool.js";

/** `edit`: replaces exactly one occurrence of `oldText` in a workspace file with `newText`. */
export function createEditTool(settings: CoreToolsSettings): ToolDefinition {
  return {
    name: "edit",
    label: "Edit file",
    description:
      "Replace one exact piece of text in a workspace text file. `oldText` must occur exactly once in the " +
      "file (copy it exactly, whitespace included, and add neighbouring lines to make it unique); it becomes " +
      "`newText`. Use write to create a file.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", minLength: 1, description: "File path relative to the workspace root." },
        oldText: { type: "string", minLength: 1, description: "The exact text to replace; must occur once." },
        newText: { type: "string", description: "The replacement text." },
      },
      required: ["path", "oldText", "newText"],
      additionalProperties: false,
    },
    origin: { kind: "core", owner: "core" },
    executionMode: "sequential",
    execute: async (args) => {
      const parsed = readArguments("edit", args, {
        path: { type: "string", required: true },
        oldText: { type: "string", required: true },
        newText: { type: "string", required: true },
      });
      if (!parsed.ok) return errorResult(parsed.message);
      const requested = parsed.values.path as string;
      const oldText = parsed.values.oldText as string;
      const newText = parsed.values.newText as string;
      const shown = showPath(requested);
      if (oldText.length === 0) return errorResult("edit: oldText is empty; give the exact text to replace.");

      const workspaceProblem = await ensureWorkspace(settings.workspace);
      if (workspaceProblem !== undefined) return errorResult(workspaceProblem);
      const text = await readWholeText(settings, requested);
      if (!text.ok) return errorResult(text.reason);

      const count = countOccurrences(text.content, oldText);
      if (count !== 1) return errorResult(occurrenceProblem(shown, count, text.content, oldText));
      const at = text.content.indexOf(oldText);
      const updated = text.content.slice(0, at) + newText + text.content.slice(at + oldText.length);
      const bytes = Buffer.byteLength(updated, "utf8");
      if (bytes > settings.maxWriteBytes) {
        return errorResult(
          `The edited file would be ${bytes} bytes; edit keeps files to ${settings.maxWriteBytes}.`,
        );
      }
      const written = await writeInsideWorkspace(settings.workspace, requested, updated);
      if (!written.ok) return errorResult(written.reason);
      const line = text.content.slice(0, at).split("\n").length;
      return textResult(`Edited ${shown}: replaced 1 occurrence at line ${line}.`, { line, bytes });
    },
  };
}

/** The whole file as UTF-8 text, refusing files over `maxWriteBytes` and bytes that are not UTF-8. */
async function readWholeText(
  settings: CoreToolsSettings,
  requested: string,
): Promise<{ ok: true; content: string } | { ok: false; reason: string }> {
  const file = await openWorkspaceFile(settings.workspace, requested, " Use write to create it.");
  if (!file.ok) return file;
  const shown = showPath(requested);
  try {
    if (file.size > settings.maxWriteBytes) {
      return {
        ok: false,
        reason: `File ${shown} is ${file.size} bytes; edit handles files up to ${settings.maxWriteBytes}.`,
      };
    }
    const bytes = await file.handle.readFile();
    if (bytes.length > settings.maxWriteBytes) {
      return {
        ok: false,
        reason: `File ${shown} grew past ${settings.maxWriteBytes} bytes; edit cannot handle it.`,
      };
    }
    try {
      return { ok: true, content: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
    } catch {
      return { ok: false, reason: `File ${shown} is not UTF-8 text; edit changes text files only.` };
    }
  } catch (error) {
    return { ok: false, reason: `File ${shown} cannot be read (${failureText(error)}).` };
  } finally {
    await file.handle.close().catch(() => undefined);
  }
}

/** Occurrences of `needle`, overlapping ones included (`aa` occurs twice in `aaa`). */
export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

function occurrenceProblem(shown: string, count: number, content: string, oldText: string): string {
  if (count > 1) {
    return `oldText occurs ${count} times in ${shown}; include more of the surrounding lines so it matches exactly once.`;
  }
  const lineEndingHint =
    content.includes("\r\n") && oldText.includes("\n") && !oldText.includes("\r\n")
      ? " The file uses CRLF (\\r\\n) line endings; match them in oldText."
      : "";
  return `oldText was not found in ${shown} (0 occurrences); read the file and copy the exact text, whitespace included.${lineEndingHint}`;
}
