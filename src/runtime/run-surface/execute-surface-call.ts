import type { ToolCallContext, ToolDefinition, ToolResult } from "../../core/catalog/index.js";
import { toErrorResult } from "../../core/controls/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { resultText } from "./result-text.js";
import { type CallAttribution, emitRunEvent } from "./run-events.js";
import { searchSummary } from "./search-summary.js";
import type { RunSurfaceRun, SurfaceCall } from "./types.js";

/** What one call through a run surface needs: how names resolve, whether Tool Search is on, the run's sink. */
export interface SurfaceCallTarget extends Pick<RunSurfaceRun, "onEvent" | "unknownToolText"> {
  lookUp(name: string): ToolDefinition | undefined;
  attributionOf(tool: ToolDefinition): CallAttribution;
  toolSearchEnabled: boolean;
}

/**
 * Runs one call by name: the tool it resolves to, or an UNKNOWN_TOOL error result with the front door's
 * text; emits its start and finish (and a search's summary) to the run's sink. Never throws.
 */
export async function executeSurfaceCall(
  target: SurfaceCallTarget,
  call: { name: string; args: unknown; context: ToolCallContext & { toolCallId: string } },
): Promise<SurfaceCall> {
  const { name, args, context } = call;
  // Events are built only for a listener: most runs have none, and this is every call's path.
  const sink = target.onEvent;
  let result: ToolResult;
  let attribution: CallAttribution = {};
  try {
    const tool = target.lookUp(name);
    if (tool) {
      attribution = target.attributionOf(tool);
      if (sink)
        emitRunEvent(sink, {
          type: "tool-call-start",
          callId: context.toolCallId,
          name,
          arguments: args,
          ...attribution,
        });
      result = await tool.execute(args, context);
    } else {
      const text = target.unknownToolText(name, target.toolSearchEnabled);
      result = toErrorResult(new ToolsiftError("UNKNOWN_TOOL", text));
    }
  } catch (error) {
    result = toErrorResult(error);
  }
  const text = resultText(result);
  if (!sink) return { result, text, attribution };
  emitRunEvent(sink, {
    type: "tool-call-finish",
    callId: context.toolCallId,
    name,
    isError: result.isError === true,
    output: text,
    ...attribution,
  });
  if (name === "tool_search" && target.toolSearchEnabled) {
    const summary = searchSummary(args, result);
    if (summary) emitRunEvent(sink, { type: "search-finish", callId: context.toolCallId, ...summary });
  }
  return { result, text, attribution };
}
