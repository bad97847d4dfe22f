import type { ToolCallContext, ToolDefinition } from "../catalog/index.js";
import type {
  CallEnvelope,
  SearchCandidate,
  SkillReference,
  Telemetry,
  ToolDescription,
} from "../controls/index.js";
import type { ToolSearchMode } from "../directory/index.js";
import type { ExecutionHooks } from "../execution/index.js";
import type { Harness, ModelReference, ToolSearchConfigValue } from "./settings-types.js";

/** Options of createToolSearch (the library contract, plus documented extensions for hosts). */
export interface ToolSearchOptions {
  /** Everything the run's policy admits. */
  tools: readonly ToolDefinition[];
  /**
   * The value of `tools.toolSearch`: undefined (automatic) | boolean | object. Typed so a wrong literal does
   * not compile; a value from JSON is still checked at run time (CONFIG_INVALID naming the key).
   */
  config?: ToolSearchConfigValue | undefined;
  /** Scales the directory budget: min(18000, max(768, floor(tokens / 10))). Default: 18,000 characters. */
  contextWindowTokens?: number;
  /** Native tool names that must stay directly visible (e.g. the only reply tool). Default none. */
  directToolNames?: readonly string[];
  /** Admitted skills, named in recovery messages. Default none. */
  skills?: readonly SkillReference[];
  /** Default `"embedded"`. */
  harness?: Harness;
  /** For local-model limits. */
  model?: ModelReference;
  /** Extension: the host's policy, plugin hooks, approvals and activity sink, run for every call. */
  hooks?: ExecutionHooks;
  /** Extension: per-call execution timeout in ms. Default: the executor's default. */
  timeoutMs?: number;
  /** Extension: Code Mode is on for this run, which turns Tool Search off. Default false. */
  codeModeEnabled?: boolean;
}

/** A Tool Search instance for one run (the library contract). */
export interface ToolSearch {
  readonly enabled: boolean;
  readonly mode: ToolSearchMode;
  /** Controls + visible tools, or every tool unchanged when Tool Search is disabled. */
  modelTools(): ToolDefinition[];
  /** The prompt directory text, or undefined when Tool Search is disabled. */
  directory(): string | undefined;
  search(query: string, options?: { limit?: number }): SearchCandidate[];
  describe(idOrName: string): ToolDescription;
  call(idOrName: string, args: unknown, context?: ToolCallContext): Promise<CallEnvelope>;
  /** Prompt-time allow list (names or ids): narrows the catalog, re-renders the directory. Never widens. */
  restrict(names: Iterable<string>): void;
  /** Appends client tools (always attributed to the client). Keeps the counter scope. */
  addClientTools(tools: readonly ToolDefinition[]): void;
  telemetry(): Telemetry;
  /** Every later operation fails closed; the last telemetry stays readable. */
  close(): void;
  /** Extension: replaces the whole tool set (new counter scope, counters reset). */
  replaceTools(tools: readonly ToolDefinition[]): void;
  /**
   * Extension for directory mode in the embedded harness: the tool behind an exact, unique hidden name,
   * resolved from the same authorized catalog, or undefined (no fuzzy matching: prefixes, ids and blanks
   * resolve to nothing).
   */
  resolveDirectoryName(name: string): ToolDefinition | undefined;
}
