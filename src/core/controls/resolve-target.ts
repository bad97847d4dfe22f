import { ToolsiftError } from "../../shared/errors/index.js";
import { safeReadString } from "../../shared/schema/index.js";
import { cutText } from "../../shared/text/index.js";
import type { CatalogEntry, CatalogSnapshot } from "../catalog/index.js";
import { invalidRequest as invalid } from "./invalid-request.js";
import { MAX_QUOTED_SELECTOR_CHARS } from "./limits.js";
import { suggestTools } from "./suggest-tools.js";
import type { ControlRuntime } from "./types.js";

/** How a model recovers from a miss; part of the unknown-tool message. */
export const RECOVERY_HINT =
  "Find the tool with tool_search, check its parameters with tool_describe if needed, then call tool_call " +
  "with the exact id (or unique name) in id and its arguments in args.";

/**
 * Finds a `tool_call` / `tool_describe` target: exact id first, else exact unique name (a selector with
 * surrounding whitespace is retried trimmed). A miss explains itself: a direct-only tool of this turn, an
 * admitted skill, or an unknown tool with up to three suggestions and how to recover. Nothing is executed.
 * Throws ToolsiftError INVALID_REQUEST / AMBIGUOUS_TOOL / DIRECT_ONLY_TOOL / SKILL_NOT_TOOL / UNKNOWN_TOOL
 * (and CATALOG_CLOSED from the runtime).
 */
export function resolveTarget(runtime: ControlRuntime, idOrName: unknown): CatalogEntry {
  const snapshot = runtime.snapshot();
  if (typeof idOrName !== "string" || idOrName.trim() === "") throw invalid("id must be a non-empty string.");
  const selector = idOrName.trim();
  const found =
    lookup(snapshot, idOrName) ?? (selector === idOrName ? undefined : lookup(snapshot, selector));
  if (found) return found;

  const quoted = quoteSelector(selector);
  if (runtime.directOnlyNames().has(selector)) {
    throw new ToolsiftError(
      "DIRECT_ONLY_TOOL",
      `${quoted} is a direct-only tool for this turn, not a cataloged one: call ${quoted} directly by its ` +
        "declared name with its declared arguments, not through tool_call or tool_describe.",
    );
  }
  const skill = runtime.skills().find((candidate) => safeReadString(candidate, "name") === selector);
  if (skill) {
    const location = safeReadString(skill, "location");
    throw new ToolsiftError(
      "SKILL_NOT_TOOL",
      `${quoted} is a skill, not a tool. Its instructions are in ${location}: read them with \`read\` at ` +
        `${location}, then follow them. Skills are not called through tool_call.`,
    );
  }
  const suggestions = suggestTools(snapshot, selector);
  const didYouMean = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(", ")}?` : "";
  throw new ToolsiftError("UNKNOWN_TOOL", `Unknown tool id: ${quoted}.${didYouMean} ${RECOVERY_HINT}`);
}

/** A model-supplied selector as quoted back in messages: at most ~200 characters. */
function quoteSelector(selector: string): string {
  return cutText(selector, MAX_QUOTED_SELECTOR_CHARS);
}

function lookup(snapshot: CatalogSnapshot, selector: string): CatalogEntry | undefined {
  const byId = snapshot.get(selector);
  if (byId) return byId;
  const byName = snapshot.withName(selector);
  if (byName.length > 1) {
    throw new ToolsiftError(
      "AMBIGUOUS_TOOL",
      `Ambiguous tool name: ${quoteSelector(selector)}; use an exact tool id.`,
    );
  }
  return byName[0];
}
