import type { ToolCallContext, ToolDefinition, ToolResult } from "../../core/catalog/index.js";
import { safeRead } from "../../shared/schema/index.js";
import type { CodeModeLimits } from "./resolve-code-mode-limits.js";
import type { CodeModeOutcome, ExecOptions, WaitOptions } from "./types.js";

/** The name of the tool that runs a cell. */
export const EXEC_TOOL_NAME = "exec";
/** The name of the tool that waits for a running cell. */
export const WAIT_TOOL_NAME = "wait";

/** What the model tools need from their Code Mode instance. */
export interface ModelToolHost {
  /** Takes the model's `code` as it came: a non-string is a failed outcome, not an exception. */
  exec(source: unknown, options: ExecOptions): Promise<CodeModeOutcome>;
  wait(runId: string, options: WaitOptions): Promise<CodeModeOutcome>;
  limits: CodeModeLimits;
  /** The quick index of the catalog, rendered when the tools are made. */
  quickIndex(): string;
}

const YIELD_PROPERTY = {
  type: "integer",
  minimum: 0,
  description:
    'Answer { status: "running", runId } if the cell still runs after this many ms. Default 10000.',
};

/** The body of exec's description before the quick index: the cell API, the limits and the outcome shapes. */
export function execDescription(limits: CodeModeLimits): string {
  return [
    "Run a short JavaScript cell in an isolated sandbox: the body of an async function that finds and calls tools and returns one JSON value.",
    "Inside a cell only these exist, besides standard JavaScript built-ins:",
    "- await tools.search(query, { limit }) -> [{ id, name, description, input, output? }]",
    "- await tools.describe(id) -> the tool's descriptor with its exact input schema (parameters)",
    "- await tools.call(id, args) -> { tool, result }; await tools.callValue(id, args) -> result.details",
    "- console.log/info/warn/error(...) -> logs",
    "A failed or blocked tool call rejects with an Error whose code says why (e.g. BLOCKED, INVALID_ARGUMENTS): catch it to recover.",
    `There is no require, import, fetch, timer, file system or network. Per cell: ${limits.timeoutMs} ms, ${limits.maxBridgeCalls} tool bridge calls, ${limits.maxLogBytes} bytes of logs.`,
    'Returns { status: "completed", value, logs }, { status: "failed", error: { code, message }, logs }, or { status: "running", runId } when the cell outlives yieldMs; then call wait with that runId.',
  ].join("\n");
}

/**
 * The `exec` and `wait` ToolDefinitions for a runner. Their execute never throws: a bad request, a failed cell
 * or an unknown runId comes back as a result with `isError: true`; `details` is the outcome itself and the
 * text content is its 2-space JSON. The exec call's id tags the cell's tool calls, and its abort signal stops
 * the cell.
 */
export function createModelTools(host: ModelToolHost): ToolDefinition[] {
  const exec: ToolDefinition = {
    name: EXEC_TOOL_NAME,
    description: `${execDescription(host.limits)}\n${host.quickIndex()}`,
    origin: { kind: "core", owner: "core" },
    catalogMode: "direct-only",
    parameters: {
      type: "object",
      properties: {
        code: { type: "string", description: "The cell: an async function body; `return` gives its value." },
        yieldMs: YIELD_PROPERTY,
      },
      required: ["code"],
      additionalProperties: false,
    },
    execute: async (args, context) => {
      const outcome = await host.exec(safeRead(args, "code"), {
        ...yieldOption(args),
        ...callContext(context),
      });
      return toToolResult(outcome);
    },
  };
  const wait: ToolDefinition = {
    name: WAIT_TOOL_NAME,
    description:
      "Wait for a cell that exec reported as running. Returns the same shapes as exec; a runId that is unknown or already answered fails.",
    origin: { kind: "core", owner: "core" },
    catalogMode: "direct-only",
    parameters: {
      type: "object",
      properties: {
        runId: { type: "string", description: "The runId from exec's running answer." },
        yieldMs: YIELD_PROPERTY,
      },
      required: ["runId"],
      additionalProperties: false,
    },
    execute: async (args) => {
      const runId = safeRead(args, "runId");
      const outcome = await host.wait(typeof runId === "string" ? runId : "", yieldOption(args));
      return toToolResult(outcome);
    },
  };
  return [exec, wait];
}

function yieldOption(args: unknown): { yieldMs?: number } {
  const yieldMs = safeRead(args, "yieldMs");
  return typeof yieldMs === "number" ? { yieldMs } : {};
}

function callContext(context: ToolCallContext | undefined): ExecOptions {
  const toolCallId = safeRead(context, "toolCallId");
  const signal = safeRead(context, "signal");
  return {
    ...(typeof toolCallId === "string" ? { toolCallId } : {}),
    ...(signal instanceof AbortSignal ? { signal } : {}),
  };
}

function toToolResult(outcome: CodeModeOutcome): ToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(outcome, null, 2) }],
    details: outcome,
    ...(outcome.status === "failed" ? { isError: true } : {}),
  };
}
