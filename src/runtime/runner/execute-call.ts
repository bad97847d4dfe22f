import type { ConversationItem } from "../providers/index.js";
import type { RunEvent, RunSurface, SurfaceCall } from "../run-surface/index.js";

/** A tool call the model asked for. */
export type FunctionCall = Extract<ConversationItem, { type: "function_call" }>;

/** The tool calls among a response's items, in order. */
export function functionCalls(items: readonly ConversationItem[]): FunctionCall[] {
  return items.filter((item): item is FunctionCall => item.type === "function_call");
}

/** One model call through the run surface; arguments that are not JSON are refused before anything runs. */
export async function executeCall(
  call: FunctionCall,
  surface: RunSurface,
  signal: AbortSignal,
  emit: (event: RunEvent) => void,
): Promise<SurfaceCall> {
  let args: unknown;
  try {
    args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    const text = `Arguments for ${call.name} are not valid JSON: send one JSON object.`;
    const attribution = surface.describeCall(call.name);
    emit({
      type: "tool-call-finish",
      callId: call.callId,
      name: call.name,
      isError: true,
      output: text,
      ...attribution,
    });
    return { result: { content: [{ type: "text", text }], isError: true }, text, attribution };
  }
  return surface.execute(call.name, args, { toolCallId: call.callId, signal });
}
