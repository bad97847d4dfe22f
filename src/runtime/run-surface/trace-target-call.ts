import type { ToolResult } from "../../core/catalog/index.js";
import type { ToolCallEvent } from "../../core/execution/index.js";
import { telemetrySettings, traceToolCall } from "../telemetry/index.js";
import { resultText } from "./result-text.js";
import { toolResultOutcome } from "./trace-run-surface.js";

/**
 * The executor's `aroundCall` hook of a traced run: a call behind `tool_call` or from a Code Mode cell gets an
 * `execute_tool {target}` span of its own (a child of the control's span), covering policy, hooks,
 * approval, validation and execution. A direct or directory call is already the surface's span, so it is
 * not wrapped twice.
 */
export function traceTargetCall(event: ToolCallEvent, call: () => Promise<ToolResult>): Promise<ToolResult> {
  if (event.surface === "direct" || event.surface === "directory") return call();
  return traceToolCall(
    {
      name: event.entry.name,
      arguments: event.args,
      toolId: event.entry.id,
      source: event.entry.source,
      surface: event.surface,
      ...(event.toolCallId === undefined ? {} : { callId: event.toolCallId }),
    },
    call,
    (result) => ({
      ...toolResultOutcome(result),
      ...(telemetrySettings().captureToolContent ? { resultText: resultText(result) } : {}),
    }),
  );
}
