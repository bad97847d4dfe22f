import type { ConversationItem } from "../providers/index.js";
import type { RunEvent } from "../run-surface/index.js";
import type { ClientHandoff } from "./client-tools.js";

/** Hands the run's client tool calls back to its caller: each joins the run's output and is told to the listener. */
export function handOff(
  handoffs: ReadonlyMap<string, ClientHandoff>,
  output: ConversationItem[],
  emit: (event: RunEvent) => void,
  runId: string,
): void {
  for (const handoff of handoffs.values()) {
    output.push({
      type: "function_call",
      callId: handoff.callId,
      name: handoff.name,
      arguments: handoff.arguments,
    });
    emit({ type: "tool-call-handoff", runId, ...handoff });
  }
}
