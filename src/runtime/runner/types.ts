import type { ConversationItem, ProviderTool } from "../providers/index.js";
import type { RunEventSink, RunResult } from "../run-surface/index.js";
import type { ProviderStatus } from "./provider-status.js";
import type { RunSignal } from "./run-signal.js";

export type { RunResult, RunStatus } from "../run-surface/index.js";

/** One user turn of one agent in one session. */
export interface RunRequest {
  /** Default `main`. */
  agentId: string;
  sessionKey: string;
  /**
   * The client key that asked for the run (the gateway's `gateway.auth.keys` id, `mcp serve`'s too): recorded
   * in a new session's header and on the run's pending approvals. Default: none (a run no key asked for).
   */
  keyId?: string;
  /** New items of this turn: user messages, and `function_call_output` items answering client tools. */
  input: ConversationItem[];
  /** Client instructions, placed after the stable system prompt prefix. */
  instructions?: string;
  /** Client function tools declared with the request: a call to one ends the run for the client to answer. */
  clientTools?: ClientToolDeclaration[];
  /**
   * Tool types the client declared that toolsift cannot run (hosted tools such as `web_search`), left out of
   * the model's request: recorded on the run's `user-input` log event. Default none.
   */
  omittedHostedTools?: string[];
  maxOutputTokens?: number;
  /** Aborts the run (with `CANCELLED`). Read only when `runSignal` is absent. */
  signal?: AbortSignal;
  /**
   * The caller's one signal for the run (a front door's, linked to its client and its drain), which the caller
   * releases: the runner arms the run timeout on it and disarms that timer when the run settles, rather than
   * making a signal of its own from `signal`. Default: the runner makes and releases its own.
   */
  runSignal?: RunSignal;
  /** Receives the run's events as they happen (a streaming front door's source). Default none. */
  onEvent?: RunEventSink;
}

/** What `Runner.countInputTokens` counts: a conversation and the client's parts of its request. */
export interface InputTokenCountRequest {
  agentId: string;
  /** The conversation as the client sends it. */
  input: ConversationItem[];
  /** Client instructions, placed after the stable system prompt prefix as in a run. */
  instructions?: string;
  /** Client function tools, admitted to the surface as in a run. */
  clientTools?: ProviderTool[];
}

/**
 * A client tool as the model sees it (a function with a JSON Schema), with how the run places it. A front door
 * that renames a client's tool for the model (a Responses namespace) maps the name back itself.
 */
export interface ClientToolDeclaration extends ProviderTool {
  /**
   * Deferred loading asked for (Responses `defer_loading: true`): the tool stays behind Tool Search (found with
   * `tool_search`, called through `tool_call`) in every Tool Search mode, directory mode included. Default false.
   */
  deferLoading?: boolean;
  /** Its owner in the catalog (`client:<owner>:<name>`): a Responses namespace. Default `client`. */
  owner?: string;
}

/** One admitted tool on an agent's effective surface. */
export interface EffectiveTool {
  id: string;
  name: string;
  source: "native" | "mcp" | "client";
  owner: string;
  /**
   * `direct`: declared to the model by itself; `catalog`: reached through Tool Search (`tool_search`, then
   * `tool_call`), or in Code Mode only inside a cell (`tools.search`, `tools.call`); `direct-only`: declared
   * and never in the catalog.
   */
  visibility: "direct" | "catalog" | "direct-only";
}

/** The surface a run of an agent would get (`GET /v1/tools/effective`, `toolsift tools`). */
export interface EffectiveSurface {
  agentId: string;
  /** Off under Code Mode, as a run has it. */
  toolSearch: { enabled: boolean; mode: "tools" | "directory" };
  /**
   * Present when the agent's runs use Code Mode (config `codeMode.enabled`, any harness but codex): they
   * declare `exec`, `wait` and the direct-only tools instead of the controls. A run whose sandbox cannot start
   * falls back to Tool Search in `tools` mode (and logs why); this look starts no sandbox, so it does not
   * know that in advance.
   */
  codeMode?: { enabled: true };
  tools: EffectiveTool[];
  /** Tool names the provider request would declare, in order. */
  declaredTools: string[];
  directory?: string;
  /** The configured upstream MCP servers and how each is doing (absent when none is configured). */
  servers?: Array<{ name: string; status: "ready" | "failed" | "starting"; tools: number; error?: string }>;
}

/** One query of a batch `tool_search` call (`queries`). */
export interface ToolSearchBatchQuery {
  query: string;
  /** Omitted: the agent's default. Capped at the agent's maximum, as in a run. */
  limit?: number;
}

/**
 * An agent's `tool_search` call, made without a run (`Runner.searchTools`): one `query` (with its `limit`),
 * or a batch (`queries`), passed to the control as given (its own checks and budgets answer a bad batch).
 */
export type ToolSearchLook = { agentId: string } & (
  | {
      query: string;
      /** The call's `limit`; omitted: the agent's default. Capped at the agent's maximum, as in a run. */
      limit?: number;
      queries?: undefined;
    }
  | { queries: ToolSearchBatchQuery[]; query?: undefined; limit?: undefined }
);

/** What a control answered the model, when the agent's runs have Tool Search on. */
export interface ControlAnswer {
  /** The text the model receives as the call's output, exactly. */
  output: string;
  isError: boolean;
  /** The error's code (`UNKNOWN_TOOL`, `INVALID_ARGUMENTS`, …) when the control refused. */
  errorCode?: string;
}

/** How a run of the agent uses Tool Search (Code Mode turns it off, as in a run). */
export interface ToolSearchState {
  enabled: boolean;
  mode: "tools" | "directory";
}

/** What `tool_search` answers the model for a query, and the request bytes it stands for. */
export interface ToolSearchPreview {
  agentId: string;
  toolSearch: ToolSearchState;
  /** The arguments the call was made with. */
  arguments: { query: string; limit?: number } | { queries: ToolSearchBatchQuery[] };
  /** Absent when Tool Search is off for the agent (the model has no `tool_search`). */
  answer?: ControlAnswer;
  /** UTF-8 bytes, measured with the agent's provider API's own body mapping. */
  bytes: {
    /** The answer's output (what the model reads back). */
    result: number;
    /** The `tools` field of the agent's requests as they are (the controls or Code Mode's tools, visible and direct-only tools). */
    declared: number;
    /** The `tools` field declaring every admitted tool up front (the agent's requests with Tool Search off). */
    everyTool: number;
    /** `everyTool` minus `declared` and `result`: what one search costs less than declaring everything. */
    saved: number;
  };
}

/** What `tool_describe` answers the model for a tool id or name. */
export interface ToolDescribePreview {
  agentId: string;
  toolSearch: ToolSearchState;
  arguments: { id: string };
  /** Absent when Tool Search is off for the agent (the model has no `tool_describe`). */
  answer?: ControlAnswer;
}

/** What `Runner.warm` built: agents, tools cataloged (before policy) and the time it took. */
export interface WarmReport {
  agents: number;
  tools: number;
  ms: number;
}

/** The runner as the gateway, the CLI and the QA scenario use it. */
export interface Runner {
  run(request: RunRequest): Promise<RunResult>;
  effectiveSurface(agentId: string): Promise<EffectiveSurface>;
  /**
   * Estimated input tokens of the model request a run of the agent would send for this conversation: the
   * system prompt (base instructions, directory, client instructions), the declared tools of the surface
   * the run would get (client tools included) and the items, by the history budget's estimate (UTF-8 bytes
   * / 3, plus a little per item). Plugin `before_prompt` hooks are not run, so their additions are not
   * counted. Optional: a runner without it cannot count.
   */
  countInputTokens?(request: InputTokenCountRequest): Promise<number>;
  /**
   * What `tool_search` would answer a run of the agent for this query, made on the surface a run opens (same
   * settings, mode, policy and caches) without a run: no plugin hook, approval or session log. Optional.
   */
  searchTools?(look: ToolSearchLook): Promise<ToolSearchPreview>;
  /** What `tool_describe` would answer a run of the agent for `id`, the same way. Optional. */
  describeTool?(agentId: string, id: string): Promise<ToolDescribePreview>;
  /** Known agent ids (`main` always). */
  agentIds(): string[];
  /**
   * Each provider's status from its last request (`/healthz` readiness): every configured provider, `unknown`
   * until used. Optional: a runner without it reports none.
   */
  providerStatus?(): Record<string, ProviderStatus>;
  /**
   * Builds what every agent's runs share (policy verdicts, catalog, search index) before the first run needs
   * it, so the first user does not wait for it. Optional: a runner without it builds on first use.
   */
  warm?(): Promise<WarmReport>;
  /** Waits for in-flight runs (at most `timeoutMs`), then releases resources. */
  close(timeoutMs?: number): Promise<void>;
}
