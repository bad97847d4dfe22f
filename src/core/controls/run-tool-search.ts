import { buildBatchResponse } from "./batch-response.js";
import { invalidRequest as invalid } from "./invalid-request.js";
import { noMatch, noMatchHelp } from "./no-match-help.js";
import { type PlannedQuery, parseSearchRequest, singleLimit } from "./search-request.js";
import { toCandidate } from "./to-candidate.js";
import type { BatchSearchResponse, ControlRuntime, SearchCandidate, SingleSearchDetails } from "./types.js";

/**
 * `tool_search`'s logic: validates the raw request (nothing runs and nothing is counted when it is invalid),
 * then returns the candidate array of a single query (full descriptions) or the batch response; a query that
 * matched nothing says why (`noMatch`: the words no tool uses, near catalog words, missing scripts). Counts one
 * search per query that ran: one for a single or blank query, one per query of a batch.
 */
export function runToolSearch(
  runtime: ControlRuntime,
  request: unknown,
): SingleSearchDetails | BatchSearchResponse {
  const snapshot = runtime.snapshot();
  const plan = parseSearchRequest(request, runtime.limits());
  if (plan.kind === "blank") {
    runtime.count("search");
    return [];
  }
  if (plan.kind === "single") {
    const candidates: SingleSearchDetails = rankedEntries(runtime, plan.query).map((entry) =>
      toCandidate(entry, { compact: false }),
    );
    runtime.count("search");
    if (candidates.length === 0) candidates.noMatch = noMatchHelp(snapshot.entries, plan.query.query);
    return candidates;
  }
  const groups = plan.queries.map((query) => {
    const entries = rankedEntries(runtime, query);
    return {
      query: query.query,
      entries,
      ...(entries.length === 0 ? { noMatch: noMatch(snapshot.entries, query.query) } : {}),
    };
  });
  runtime.count("search", plan.queries.length);
  return buildBatchResponse(groups);
}

/**
 * The library's `search(query, { limit })`: the same ranking and limit rules as `tool_search`'s single form
 * (blank query → `[]`; limit omitted → the default; not a positive integer → an error; capped at the maximum).
 */
export function searchCandidates(runtime: ControlRuntime, query: string, limit?: unknown): SearchCandidate[] {
  runtime.snapshot();
  if (typeof query !== "string") throw invalid("query must be a string.");
  const effective = singleLimit(limit, runtime.limits());
  const candidates =
    query.trim() === ""
      ? []
      : rankedEntries(runtime, { query, limit: effective }).map((entry) =>
          toCandidate(entry, { compact: false }),
        );
  runtime.count("search");
  return candidates;
}

function rankedEntries(runtime: ControlRuntime, query: PlannedQuery) {
  return runtime.search(query.query, query.limit).slice(0, query.limit);
}
