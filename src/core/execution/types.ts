import type { CatalogEntry, ToolResult } from "../catalog/index.js";

/** Which surface a call came from. */
export type CallSurface = "control" | "direct" | "directory" | "code-mode";

/** What hooks see about a call. */
export interface ToolCallEvent {
  readonly entry: CatalogEntry;
  /** The arguments at this point of the pipeline (after repair; after hook rewrites for later hooks). */
  readonly args: unknown;
  readonly toolCallId?: string;
  readonly surface: CallSurface;
  /** The caller's abort signal, so a hook that waits (an approval) can stop waiting. Added by execution/. */
  readonly signal?: AbortSignal;
}

/** A policy answer for one call. */
export type PolicyDecision = { allowed: true } | { allowed: false; reason: string };

/** A `before_tool_call` hook's answer: rewrite the arguments, block, or nothing. */
export type BeforeToolCallResult = { params?: unknown } | { block: string } | undefined;

/** An approval answer. */
export type ApprovalDecision = { approved: true } | { approved: false; reason: string };

/** Points where the host (the runner) plugs into every call, in pipeline order. All optional. */
export interface ExecutionHooks {
  /** Step 2: allow/deny, per-agent and per-sandbox restrictions. */
  checkPolicy?(event: ToolCallEvent): PolicyDecision | Promise<PolicyDecision>;
  /** Step 3: plugin hooks, in load order; may rewrite arguments or block. */
  beforeToolCall?(event: ToolCallEvent): BeforeToolCallResult | Promise<BeforeToolCallResult>;
  /** Step 4: waits for a decision for tools that need approval. */
  requestApproval?(event: ToolCallEvent): ApprovalDecision | Promise<ApprovalDecision>;
  /** Step 9: told about every finished call (for session activity). Errors thrown here are ignored. */
  onCallFinished?(activity: ToolCallActivity): void;
  /**
   * Wraps each whole call (steps 1 to 9), e.g. to run it inside a tracing span: it must call `call` once
   * and settle as it settles (a result, or its ToolsiftError). Default: none.
   */
  aroundCall?(event: ToolCallEvent, call: () => Promise<ToolResult>): Promise<ToolResult>;
}

/** A finished call, for session activity. */
export interface ToolCallActivity {
  readonly entry: CatalogEntry;
  readonly args: unknown;
  readonly toolCallId?: string;
  readonly surface: CallSurface;
  readonly outcome: "ok" | "error" | "blocked";
  readonly result: ToolResult;
}
