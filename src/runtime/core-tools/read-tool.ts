import type { ToolDefinition } from "../../core/catalog/index.js";
import { ensureWorkspace, openWorkspaceFile } from "./open-workspace-file.js";
import { readArguments } from "./read-arguments.js";
import { readFileLines } from "./read-file-lines.js";
import { showPath } from "./show-path.js";
import { errorResult, failureText, textResult } from "./tool-result.js";
import type { CoreToolsSettings } from "./types.js";
import { decodeUtf8 } from "./utf8-text.js";

/** `read`: a UTF-8 text file of the workspace, a window of lines at a time, capped at `maxReadBytes`. */
export function createReadTool(settings: CoreToolsSettings): ToolDefinition {
  return {
    name: "read",
    label: "Read file",
    description:
      "Read a UTF-8 text file from the workspace. `path` is relative to the workspace root. For long files " +
      "pass `offset` (first line to return, 1-based) and `limit` (number of lines). At most " +
      `${settings.maxReadBytes} bytes come back per call, with a note saying how to continue.`,
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", minLength: 1, description: "File path relative to the workspace root." },
        offset: { type: "integer", minimum: 1, description: "First line to return (1-based). Default 1." },
        limit: { type: "integer", minimum: 1, description: "Most lines to return. Default: to the end." },
      },
      required: ["path"],
      additionalProperties: false,
    },
    origin: { kind: "core", owner: "core" },
    executionMode: "parallel",
    execute: async (args) => {
      const parsed = readArguments("read", args, {
        path: { type: "string", required: true },
        offset: { type: "integer", minimum: 1 },
        limit: { type: "integer", minimum: 1 },
      });
      if (!parsed.ok) return errorResult(parsed.message);
      const requested = parsed.values.path as string;
      const startLine = (parsed.values.offset as number | undefined) ?? 1;
      const maxLines = (parsed.values.limit as number | undefined) ?? Number.POSITIVE_INFINITY;

      const workspaceProblem = await ensureWorkspace(settings.workspace);
      if (workspaceProblem !== undefined) return errorResult(workspaceProblem);
      const file = await openWorkspaceFile(settings.workspace, requested);
      if (!file.ok) return errorResult(file.reason);
      try {
        const lines = await readFileLines(file.handle, {
          startLine,
          maxLines,
          maxBytes: settings.maxReadBytes,
        });
        const shown = showPath(requested);
        if (lines.binary)
          return errorResult(`File ${shown} looks binary (it contains NUL bytes); read only text files.`);
        if (file.size === 0) return textResult(`File ${shown} is empty.`, readDetails(lines, file.size, 0));
        if (lines.lineCount === 0) {
          return errorResult(
            `File ${shown} has ${lines.linesSeen} lines; offset ${startLine} is past the end.`,
            readDetails(lines, file.size, 0),
          );
        }
        const text = decodeUtf8(lines.bytes);
        const endLine = startLine + lines.lineCount - 1;
        const gap = text.endsWith("\n") ? "\n" : "\n\n";
        let note = "";
        if (lines.cutAtBytes) {
          note =
            `${gap}[Stopped at the ${settings.maxReadBytes}-byte read limit inside line ${endLine} ` +
            `(the file has ${file.size} bytes). Continue with offset=${endLine + 1}, or use exec to search it.]`;
        } else if (lines.moreLines) {
          note = `${gap}[Lines ${startLine}-${endLine} shown; more follow. Continue with offset=${endLine + 1}.]`;
        }
        return textResult(`${text}${note}`, readDetails(lines, file.size, endLine));
      } catch (error) {
        return errorResult(`File ${showPath(requested)} cannot be read (${failureText(error)}).`);
      } finally {
        await file.handle.close().catch(() => undefined);
      }
    },
  };
}

function readDetails(
  lines: { startLine: number; bytes: Buffer; cutAtBytes: boolean; moreLines: boolean },
  fileBytes: number,
  endLine: number,
) {
  return {
    startLine: lines.startLine,
    endLine,
    bytes: lines.bytes.length,
    fileBytes,
    truncated: lines.cutAtBytes || lines.moreLines,
  };
}
