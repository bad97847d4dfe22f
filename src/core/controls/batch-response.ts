import { cutText } from "../../shared/text/index.js";
import type { CatalogEntry } from "../catalog/index.js";
import { BATCH_CANDIDATE_METADATA_CHARS, MAX_BATCH_RESPONSE_CHARS } from "./limits.js";
import { modelText } from "./model-data.js";
import { batchNoMatchHint } from "./no-match-help.js";
import { toCandidate } from "./to-candidate.js";
import type { BatchSearchGroup, BatchSearchResponse, NoMatch, SearchCandidate } from "./types.js";

const CUT_MARKER = "...";

/** One query's ranked hits, before the batch budgets are applied. */
export type RankedGroup = { query: string; entries: readonly CatalogEntry[]; noMatch?: NoMatch };

/**
 * The batch answer in request order, within its budgets: compact candidates, each within the per-candidate
 * metadata budget (or dropped), and the whole response, as compact JSON, within 4,000 characters by removing
 * the lowest-ranked candidate of the largest group (ties: the earlier group). Groups that lost candidates,
 * and then the response, carry `truncated: true`.
 */
export function buildBatchResponse(groups: readonly RankedGroup[]): BatchSearchResponse {
  const response: BatchSearchResponse = { results: [] };
  for (const group of groups) {
    const candidates: SearchCandidate[] = [];
    for (const entry of group.entries) {
      const fitted = fitCandidateMetadata(toCandidate(entry, { compact: true }));
      if (fitted) candidates.push(fitted);
    }
    const result: BatchSearchGroup = { query: group.query.trim(), candidates };
    if (candidates.length < group.entries.length) markTruncated(response, result);
    if (group.noMatch && group.entries.length === 0) result.noMatch = group.noMatch;
    response.results.push(result);
  }
  const noMatches = response.results.flatMap((result) => (result.noMatch ? [result.noMatch] : []));
  if (noMatches.length > 0) response.hint = batchNoMatchHint(noMatches);
  while (modelText(response).length > MAX_BATCH_RESPONSE_CHARS) {
    const largest = largestGroup(response.results);
    if (!largest) break;
    largest.candidates.pop();
    markTruncated(response, largest);
  }
  // Only no-match notes are left over the budget: shorten them, suggestions first, then the notes.
  for (const result of response.results) {
    if (modelText(response).length <= MAX_BATCH_RESPONSE_CHARS) break;
    if (result.noMatch) result.noMatch = { ...result.noMatch, suggestions: [] };
  }
  for (const result of response.results) {
    if (modelText(response).length <= MAX_BATCH_RESPONSE_CHARS) break;
    delete result.noMatch;
  }
  return response;
}

/**
 * Applies the per-candidate metadata budget (characters of field values; `mcp` counts its server and tool):
 * `undefined` when id, source, name and input alone exceed it; otherwise the description is kept, cut with
 * "..." to what is left if needed (empty when too little is left), and then `owner`, `label`, `mcp`,
 * `output` are kept in that order while they fit (the first that does not fit ends the list). A field that
 * alone exceeds the whole budget (a 20,000-character label) is dropped from this candidate and does not end
 * the list.
 */
export function fitCandidateMetadata(candidate: SearchCandidate): SearchCandidate | undefined {
  const core = candidate.id.length + candidate.source.length + candidate.name.length + candidate.input.length;
  if (core > BATCH_CANDIDATE_METADATA_CHARS) return undefined;
  let left = BATCH_CANDIDATE_METADATA_CHARS - core;
  const description =
    candidate.description.length <= left
      ? candidate.description
      : left > CUT_MARKER.length
        ? cutText(candidate.description, left, CUT_MARKER)
        : "";
  left -= description.length;

  const kept: Partial<Pick<SearchCandidate, "owner" | "label" | "mcp" | "output">> = {};
  const optional: Array<[keyof typeof kept, number]> = [
    ["owner", candidate.owner?.length ?? -1],
    ["label", candidate.label?.length ?? -1],
    ["mcp", candidate.mcp ? candidate.mcp.server.length + candidate.mcp.tool.length : -1],
    ["output", candidate.output?.length ?? -1],
  ];
  for (const [field, size] of optional) {
    if (size < 0 || size > BATCH_CANDIDATE_METADATA_CHARS) continue;
    if (size > left) break;
    left -= size;
    Object.assign(kept, { [field]: candidate[field] });
  }
  return {
    id: candidate.id,
    source: candidate.source,
    ...(kept.owner === undefined ? {} : { owner: kept.owner }),
    name: candidate.name,
    ...(kept.label === undefined ? {} : { label: kept.label }),
    description,
    input: candidate.input,
    ...(kept.output === undefined ? {} : { output: kept.output }),
    ...(kept.mcp === undefined ? {} : { mcp: kept.mcp }),
  };
}

function markTruncated(response: BatchSearchResponse, group: BatchSearchGroup): void {
  group.truncated = true;
  response.truncated = true;
}

function largestGroup(groups: readonly BatchSearchGroup[]): BatchSearchGroup | undefined {
  let largest: BatchSearchGroup | undefined;
  for (const group of groups) {
    if (group.candidates.length > (largest?.candidates.length ?? 0)) largest = group;
  }
  return largest;
}
