import JSON5 from "json5";
import { ToolsiftError } from "../../shared/errors/index.js";
import { cutText, LONGEST_SHOWN_VALUE } from "../../shared/text/index.js";
import { NOTHING_CHANGED } from "./invalid-config-error.js";

const SYNTAX_HINT =
  "The file is JSON5: comments, trailing commas and unquoted keys are allowed, but brackets, quotes and " +
  "commas between entries must match.";

/**
 * Parses the text of a config file as JSON5. A file holding only whitespace is `{}` (all defaults). A syntax
 * error throws CONFIG_INVALID `Invalid config <file>:<line>:<col>: <reason>`, with a hint; never a stack trace.
 */
export function parseConfigText(text: string, file: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON5.parse(text);
  } catch (error) {
    const { line, column, reason } = readSyntaxError(error);
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `Invalid config ${file}:${line}:${column}: ${reason}\n${SYNTAX_HINT}\n${NOTHING_CHANGED}`,
      { cause: error },
    );
  }
}

function readSyntaxError(error: unknown): { line: number; column: number; reason: string } {
  const details = error as { lineNumber?: unknown; columnNumber?: unknown; message?: unknown };
  const line = typeof details.lineNumber === "number" ? details.lineNumber : 1;
  const column = typeof details.columnNumber === "number" ? details.columnNumber : 1;
  const message = typeof details.message === "string" ? details.message : "could not be parsed";
  const reason = message.replace(/^JSON5: /u, "").replace(/ at \d+:\d+$/u, "");
  return { line, column, reason: cutText(reason, LONGEST_SHOWN_VALUE * 2) };
}
