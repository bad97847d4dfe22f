import type { ToolCallContext, ToolDefinition, ToolResult } from "../../core/catalog/index.js";
import type { Telemetry } from "../../core/controls/index.js";
import type { ToolSearchMode } from "../../core/directory/index.js";
import type { ApprovalRecord } from "../approvals/index.js";
import type { RunProfile } from "../environment/index.js";
import type { CallAttribution, RunEventSink } from "./run-events.js";
import type { TargetActivity } from "./target-activity.js";

/** What only one run knows (a gateway run, one `mcp serve` connection); the rest is its RunEnvironment. */
export interface RunSurfaceRun {
  /** Who runs: agent id, harness, model, context window and tool policy. */
  profile: RunProfile;
  sessionKey: string;
  /** The client key the run belongs to, recorded on its pending approvals. Default: none. */
  keyId?: string;
  /** Every tool of the run's sources (core, plugin, MCP), before policy. */
  tools: readonly ToolDefinition[];
  /**
   * The version of `tools` their sources state: equal versions mean the very same definitions, so what was
   * derived from them (policy verdicts, the catalog) is found by it. Default: none (found by identity).
   */
  toolsVersion?: string;
  /** Tools the client declared with the request (a call to one is handed back). Default none. */
  clientTools?: readonly ToolDefinition[];
  /**
   * Code Mode for this run (replaces the controls; falls back to `tools` mode if it cannot start). With
   * `declareOnly` (a look without a run) no sandbox is checked or started: its tools are declared as a run
   * whose sandbox starts declares them, and their calls fail. Default off.
   */
  codeMode?: { timeoutMs?: number; declareOnly?: boolean };
  /** The user's text of this turn: when set, `before_prompt` hooks may narrow the catalog. Default: not run. */
  promptText?: string;
  /** Each finished call behind `tool_call`, as display-only evidence. Default: dropped. */
  onTargetActivity?(activity: TargetActivity): void;
  /** How each call that waited for approval was settled (who, when, the note), to log. Default: dropped. */
  onApproval?(record: ApprovalRecord & { callId?: string }): void;
  /** Tool calls started and finished, and searches, as run events. Default: none emitted. */
  onEvent?: RunEventSink;
  /** The text of the error result for a name no declared or hidden tool has. */
  unknownToolText(name: string, toolSearchEnabled: boolean): string;
}

/** One call through the surface: the result, its text for the model and logs, and the tool it reached. */
export interface SurfaceCall {
  result: ToolResult;
  /** The text the model gets back (`resultText`). */
  text: string;
  attribution: CallAttribution;
}

/** The surface of one run, the same for every front door. */
export interface RunSurface {
  readonly toolSearchEnabled: boolean;
  readonly mode: ToolSearchMode;
  /** The tools to declare, in order: every call of each one passes the executor pipeline. */
  modelTools(): readonly ToolDefinition[];
  /** The directory text for the instructions, or undefined when Tool Search is off. */
  directory(): string | undefined;
  /** The catalog tool behind a declared or exact hidden name (nothing for controls and unknown names). */
  describeCall(name: string): CallAttribution;
  /** Runs one call by name through the pipeline, emitting its events; never throws. */
  execute(
    name: string,
    args: unknown,
    context: ToolCallContext & { toolCallId: string },
  ): Promise<SurfaceCall>;
  telemetry(): Telemetry;
  /** Builds the search index now (shared with later runs over the same catalog), so no call waits for it. */
  warmSearch(): void;
  /** Rebuilds from a new tool set (an upstream's `list_changed`); policy and client tools apply as before. */
  replaceTools(tools: readonly ToolDefinition[]): void;
  /** Later calls fail closed; Code Mode's children stop. */
  close(): void;
}
