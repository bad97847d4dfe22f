import { safeRead } from "../../shared/schema/index.js";
import { invalidRequest as invalid } from "./invalid-request.js";
import {
  MAX_BATCH_QUERIES,
  MAX_BATCH_QUERY_BYTES,
  MAX_BATCH_QUERY_GRAPHEMES,
  MAX_BATCH_TOTAL_RESULTS,
} from "./limits.js";

/** The effective search limits of a run. */
export type SearchLimits = { searchDefaultLimit: number; maxSearchLimit: number };

/** One query of a plan, with its effective limit (default applied, capped). */
export type PlannedQuery = { query: string; limit: number };

/** What a valid `tool_search` request asks for. */
export type SearchPlan =
  | { kind: "blank" }
  | { kind: "single"; query: PlannedQuery }
  | { kind: "batch"; queries: PlannedQuery[] };

/**
 * Validates a raw `tool_search` request (the model's arguments) against every request rule and budget of
 * the spec, before any search runs. Throws ToolsiftError INVALID_REQUEST with the spec's message.
 */
export function parseSearchRequest(request: unknown, limits: SearchLimits): SearchPlan {
  const query = present(safeRead(request, "query"));
  const limit = present(safeRead(request, "limit"));
  const queries = present(safeRead(request, "queries"));

  if (query === undefined && queries === undefined) throw invalid("provide query or queries.");
  const batchLength = queries === undefined ? 0 : arrayLength(queries);
  if (batchLength === undefined) throw invalid("queries must be a non-empty array.");
  if (query !== undefined && typeof query !== "string") throw invalid("query must be a string.");
  const scalar = typeof query === "string" && query.trim() !== "" ? query : undefined;

  if (batchLength === 0) {
    if (scalar === undefined && queries !== undefined) throw invalid("queries must be a non-empty array.");
    const effective = effectiveLimit(checkLimit(limit, "limit"), limits);
    return scalar === undefined
      ? { kind: "blank" }
      : { kind: "single", query: { query: scalar, limit: effective } };
  }

  if (scalar === undefined && limit !== undefined) {
    throw invalid("set limit on each batch query, not on the batch request.");
  }
  const planned: PlannedQuery[] = [];
  if (scalar !== undefined)
    planned.push({ query: scalar, limit: effectiveLimit(checkLimit(limit, "limit"), limits) });

  const count = planned.length + batchLength;
  if (count > MAX_BATCH_QUERIES) {
    throw invalid(
      `a batch allows at most ${MAX_BATCH_QUERIES} queries; got ${count}. Split it into several tool_search calls.`,
    );
  }
  for (let index = 0; index < batchLength; index += 1) {
    planned.push(checkItem(safeRead(queries, String(index)), index, limits));
  }

  const total = planned.reduce((sum, item) => sum + item.limit, 0);
  if (total > MAX_BATCH_TOTAL_RESULTS) {
    throw invalid(
      `a batch allows at most ${MAX_BATCH_TOTAL_RESULTS} results in total (the sum of its query limits, ` +
        `${limits.searchDefaultLimit} for a query without one); got ${total}. Lower the limits or split the batch.`,
    );
  }
  const bytes = Buffer.byteLength(JSON.stringify(planned.map((item) => item.query)), "utf8");
  if (bytes > MAX_BATCH_QUERY_BYTES) {
    throw invalid(
      `a batch allows at most ${MAX_BATCH_QUERY_BYTES} bytes of query text (UTF-8 of the JSON list of its ` +
        `query strings); got ${bytes}. Use shorter queries or split the batch.`,
    );
  }
  return { kind: "batch", queries: planned };
}

/** Validates the library's / single form's limit: undefined or null means the default; caps at the maximum. */
export function singleLimit(limit: unknown, limits: SearchLimits): number {
  return effectiveLimit(checkLimit(present(limit), "limit"), limits);
}

function checkItem(raw: unknown, index: number, limits: SearchLimits): PlannedQuery {
  const label = `queries[${index}]`;
  // A bare string is the query itself (weak models send `queries: ["send email", "list files"]`).
  const item = typeof raw === "string" ? { query: raw } : raw;
  if (typeof item !== "object" || item === null || isArray(item))
    throw invalid(`${label} must be an object.`);
  const query = safeRead(item, "query");
  if (typeof query !== "string" || query.trim() === "")
    throw invalid(`${label}.query must be a non-empty string.`);
  if (exceedsGraphemes(query, MAX_BATCH_QUERY_GRAPHEMES)) {
    throw invalid(`${label}.query must not exceed ${MAX_BATCH_QUERY_GRAPHEMES} characters.`);
  }
  return {
    query,
    limit: effectiveLimit(checkLimit(present(safeRead(item, "limit")), `${label}.limit`), limits),
  };
}

/** Digits only, as a weak model writes an integer in a string (`"3"`). */
const INTEGER_TEXT = /^\s*\d{1,9}\s*$/;

function checkLimit(raw: unknown, label: string): number | undefined {
  if (raw === undefined) return undefined;
  const limit = typeof raw === "string" && INTEGER_TEXT.test(raw) ? Number(raw) : raw;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    throw invalid(`${label} must be a positive integer.`);
  }
  return limit;
}

function effectiveLimit(limit: number | undefined, limits: SearchLimits): number {
  return Math.min(limit ?? limits.searchDefaultLimit, limits.maxSearchLimit);
}

/** `null` is the same as absent. */
function present(value: unknown): unknown {
  return value === null ? undefined : value;
}

function isArray(value: unknown): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** The length of an array (hostile ones included), or undefined when `value` is not a readable array. */
function arrayLength(value: unknown): number | undefined {
  if (!isArray(value)) return undefined;
  const length = safeRead(value, "length");
  return typeof length === "number" && Number.isInteger(length) && length >= 0 ? length : undefined;
}

let graphemeSegmenter: Intl.Segmenter | undefined;

function exceedsGraphemes(text: string, max: number): boolean {
  if (text.length <= max) return false;
  graphemeSegmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  let count = 0;
  for (const _segment of graphemeSegmenter.segment(text)) {
    count += 1;
    if (count > max) return true;
  }
  return false;
}
