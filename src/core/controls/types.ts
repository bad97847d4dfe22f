import type { CatalogEntry, CatalogSnapshot, EntrySource, ToolResult } from "../catalog/index.js";
import type { SearchLimits } from "./search-request.js";

/** One search hit as the model sees it: compact and safe to put back into the prompt. */
export interface SearchCandidate {
  id: string;
  source: EntrySource;
  owner?: string;
  name: string;
  label?: string;
  description: string;
  /** Compact input signature for `native` entries; `"unknown"` for MCP and client entries. */
  input: string;
  /** Compact output signature, only for `native` entries whose output schema renders completely. */
  output?: string;
  mcp?: { server: string; tool: string };
}

/** `tool_describe`'s answer: the descriptor plus the full schemas. */
export interface ToolDescription extends SearchCandidate {
  /** The input schema as declared (`{}` when missing); untrusted schemas as received. */
  parameters: unknown;
  /** The full output schema, for `native` tools that declare one. */
  outputSchema?: unknown;
}

/** `tool_call`'s structured answer. */
export interface CallEnvelope {
  tool: SearchCandidate;
  result: ToolResult;
}

/** Why a query found nothing, so the answer can say how to recover. */
export interface NoMatch {
  /** Query words (as typed) that match no tool at all; stopwords are not listed. */
  unmatchedWords: string[];
  /** Words the catalog uses that start like an unmatched word (e.g. `calendar` for `calender`). */
  suggestions: string[];
  /** Scripts of query words the catalog has no text in, e.g. `Cyrillic`. */
  missingScripts: string[];
}

/** A no-match with its explanation for the model. */
export interface NoMatchHelp extends NoMatch {
  hint: string;
}

/**
 * `tool_search`'s details for a single query: the candidate array; when a non-blank query matched nothing,
 * the (empty) array also carries `noMatch` (own, enumerable; the model text shows it as JSON).
 */
export type SingleSearchDetails = SearchCandidate[] & { noMatch?: NoMatchHelp };

/** One group of a batch search answer. */
export interface BatchSearchGroup {
  query: string;
  candidates: SearchCandidate[];
  truncated?: true;
  /** Present when the query matched nothing at all (never for a group emptied by the budgets). */
  noMatch?: NoMatch;
}

/** A batch search answer. */
export interface BatchSearchResponse {
  results: BatchSearchGroup[];
  truncated?: true;
  /** How to search instead, present when a group has `noMatch`. */
  hint?: string;
}

/** Counters of one Tool Search instance (describe-and-call.md, Telemetry). */
export interface Telemetry {
  catalogSize: number;
  sources: { native: number; mcp: number; client: number };
  /** 24 lowercase hex characters; stable while the catalog is appended to, new when it is replaced. */
  counterScope: string;
  searchCount: number;
  describeCount: number;
  callCount: number;
}

/** An admitted skill, named in recovery messages when a model mistakes it for a tool. */
export interface SkillReference {
  name: string;
  location: string;
}

/** What the controls need from their host (the Tool Search instance). */
export interface ControlRuntime {
  /** The current snapshot. Throws ToolsiftError CATALOG_CLOSED when the catalog is closed. */
  snapshot(): CatalogSnapshot;
  /** The effective search limits of this run. */
  limits(): SearchLimits;
  /** Ranked entries for one query over the current snapshot. */
  search(query: string, limit: number): readonly CatalogEntry[];
  /** Names of direct-only tools declared for this turn (after any prompt-time restriction). */
  directOnlyNames(): ReadonlySet<string>;
  /** Admitted skills, named in recovery messages. */
  skills(): readonly SkillReference[];
  /** One call through the executor pipeline. */
  execute(
    entry: CatalogEntry,
    args: unknown,
    options: { toolCallId?: string; signal?: AbortSignal },
  ): Promise<ToolResult>;
  /** Telemetry counters. */
  count(kind: "search" | "describe" | "call", amount?: number): void;
}
