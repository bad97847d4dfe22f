import type { ToolResult } from "../../core/catalog/index.js";
import { safeRead } from "../../shared/schema/index.js";

/** A `tool_search` call as a `search-finish` event tells it: the queries asked and the candidates returned. */
export interface SearchSummary {
  queries: string[];
  hits: number;
}

/**
 * Reads what a `tool_search` call asked and found from its arguments and its result's details (the single
 * form's candidate array, or the batch form's groups). Undefined for a refused call (an error result).
 */
export function searchSummary(args: unknown, result: ToolResult): SearchSummary | undefined {
  if (result.isError === true) return undefined;
  const details = result.details;
  if (Array.isArray(details)) {
    const query = safeRead(args, "query");
    return { queries: typeof query === "string" ? [query] : [], hits: details.length };
  }
  const groups = safeRead(details, "results");
  if (!Array.isArray(groups)) return undefined;
  const queries: string[] = [];
  let hits = 0;
  for (const group of groups) {
    const query = safeRead(group, "query");
    const candidates = safeRead(group, "candidates");
    if (typeof query === "string") queries.push(query);
    if (Array.isArray(candidates)) hits += candidates.length;
  }
  return { queries, hits };
}
