import type { ToolResult } from "../../core/catalog/index.js";
import { safeRead } from "../../shared/schema/index.js";
import { type ToolSpanOutcome, telemetryOn, traceToolCall } from "../telemetry/index.js";
import { searchSummary } from "./search-summary.js";
import type { RunSurface, SurfaceCall } from "./types.js";

/**
 * The surface with each `execute` traced as `execute_tool {name}` (the name the model called; a
 * `tool_search` also gets its query count, limit and hit count). Returned unchanged when no OpenTelemetry
 * SDK is registered as the surface opens, so a run without telemetry pays nothing per call.
 */
export function traceRunSurface(surface: RunSurface): RunSurface {
  if (!telemetryOn()) return surface;
  return {
    ...surface,
    execute(name, args, context) {
      const attribution = surface.describeCall(name);
      return traceToolCall(
        {
          name,
          callId: context.toolCallId,
          arguments: args,
          ...(attribution.toolId === undefined ? {} : { toolId: attribution.toolId }),
          ...(attribution.source === undefined ? {} : { source: attribution.source }),
        },
        () => surface.execute(name, args, context),
        (call) => outcomeOf(call, name === "tool_search" && surface.toolSearchEnabled ? args : undefined),
      );
    },
  };
}

/** How a surface call ended; `searchArgs` are a `tool_search`'s arguments (its summary is read from them). */
function outcomeOf(call: SurfaceCall, searchArgs: unknown): ToolSpanOutcome {
  const outcome: ToolSpanOutcome = { ...toolResultOutcome(call.result), resultText: call.text };
  if (searchArgs !== undefined) {
    const summary = searchSummary(searchArgs, call.result);
    if (summary) {
      const limit = safeRead(searchArgs, "limit");
      outcome.search = {
        queryCount: summary.queries.length,
        hits: summary.hits,
        ...(typeof limit === "number" ? { limit } : {}),
      };
    }
  }
  return outcome;
}

/** Error, code and block reason of a tool result (`details.error.code`, `details.reason` of a block). */
export function toolResultOutcome(result: ToolResult): ToolSpanOutcome {
  if (result.isError !== true) return { isError: false };
  const details = result.details;
  const code = safeRead(safeRead(details, "error"), "code");
  const reason = safeRead(details, "reason");
  return {
    isError: true,
    ...(typeof code === "string" ? { errorType: code } : {}),
    ...(typeof reason === "string" ? { blockedReason: reason } : {}),
  };
}
