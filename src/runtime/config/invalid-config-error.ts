import { ToolsiftError } from "../../shared/errors/index.js";
import { MAX_LISTED_CONFIG_ISSUES } from "./limits.js";
import type { ConfigIssue } from "./types.js";

/** The last line of every refusal: a bad file never leads to a change. */
export const NOTHING_CHANGED = "Nothing was changed: fix the file and run the command again.";

/**
 * The CONFIG_INVALID error for a file that failed validation: `Invalid config <file>:`, one `path: reason`
 * line per problem (the first MAX_LISTED_CONFIG_ISSUES, then a count of the rest), then NOTHING_CHANGED.
 */
export function invalidConfigError(file: string, issues: readonly ConfigIssue[]): ToolsiftError {
  const listed = issues.slice(0, MAX_LISTED_CONFIG_ISSUES).map((issue) => `${issue.path}: ${issue.message}`);
  const hidden = issues.length - listed.length;
  if (hidden > 0) listed.push(`… and ${hidden} more problem${hidden === 1 ? "" : "s"}`);
  return new ToolsiftError(
    "CONFIG_INVALID",
    [`Invalid config ${file}:`, ...listed, NOTHING_CHANGED].join("\n"),
  );
}

/** The CONFIG_INVALID error for a file that cannot be used at all (unreadable, too large, not a file). */
export function unusableConfigError(file: string, reason: string, cause?: unknown): ToolsiftError {
  return new ToolsiftError("CONFIG_INVALID", `Invalid config ${file}: ${reason}\n${NOTHING_CHANGED}`, {
    cause,
  });
}
