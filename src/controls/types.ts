import type { CatalogEntry, CatalogSnapshot, EntrySource, ToolResult } from "../catalog/index.js";

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

/** One group of a batch search answer. */
export interface BatchSearchGroup {
  query: string;
  candidates: SearchCandidate[];
  truncated?: true;
}

/** A batch search answer. */
export interface BatchSearchResponse {
  results: BatchSearchGroup[];
  truncated?: true;
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
  limits(): { searchDefaultLimit: number; maxSearchLimit: number };
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
