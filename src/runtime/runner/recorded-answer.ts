import type { ConversationItem } from "../providers/index.js";
import { emitRunEvent, type RunEventSink } from "../run-surface/index.js";
import type { SessionEvent } from "../sessions/index.js";
import type { RunResult } from "./types.js";

type RunSummary = Extract<SessionEvent, { type: "run-summary" }>;

/**
 * The answer the session's last run gave, rebuilt from its log when that run answered (`completed`, or
 * `requires_action` with its client tool calls): its assistant messages in order, then the calls it handed to
 * the client, as the run returned them. Undefined when the session has no run, or its last run failed or
 * stopped short (there is no answer to give again). Usage is zero: no model was asked.
 */
export function recordedAnswer(
  events: readonly SessionEvent[],
  options: { agentId: string; sessionKey: string; model: string },
): RunResult | undefined {
  const summary = events.findLast((event): event is RunSummary => event.type === "run-summary");
  if (summary?.runId === undefined) return undefined;
  if (summary.status !== "completed" && summary.status !== "requires_action") return undefined;
  const output: ConversationItem[] = [];
  for (const event of events) {
    if (event.type !== "assistant-output" || event.runId !== summary.runId || !Array.isArray(event.items))
      continue;
    for (const item of event.items)
      if (item.type === "message" && item.role === "assistant" && typeof item.text === "string")
        output.push({ type: "message", role: "assistant", text: item.text });
  }
  for (const handoff of handoffsOf(summary)) output.push({ type: "function_call", ...handoff });
  return {
    runId: summary.runId,
    agentId: options.agentId,
    sessionKey: options.sessionKey,
    status: summary.status,
    output,
    text: output.flatMap((item) => (item.type === "message" ? [item.text] : [])).join("\n"),
    model: options.model,
    usage: { inputTokens: 0, outputTokens: 0 },
  };
}

/** Tells a recorded answer as a run would: start, each message as one turn, the handoffs, the finish. */
export function emitRecordedAnswer(result: RunResult, sink: RunEventSink | undefined): void {
  const { runId } = result;
  emitRunEvent(sink, {
    type: "run-start",
    runId,
    agentId: result.agentId,
    sessionKey: result.sessionKey,
    model: result.model,
  });
  let turn = 0;
  for (const item of result.output) {
    if (item.type !== "message") continue;
    turn += 1;
    if (item.text !== "") emitRunEvent(sink, { type: "text-delta", runId, turn, delta: item.text });
    emitRunEvent(sink, { type: "model-request-finish", runId, turn });
  }
  for (const item of result.output)
    if (item.type === "function_call")
      emitRunEvent(sink, {
        type: "tool-call-handoff",
        runId,
        callId: item.callId,
        name: item.name,
        arguments: item.arguments,
      });
  emitRunEvent(sink, { type: "run-finish", result });
}

/** The well-formed handoffs of a summary (a log is read, not trusted). */
function handoffsOf(summary: RunSummary): Array<{ callId: string; name: string; arguments: string }> {
  const handoffs: unknown = summary.handoffs;
  if (!Array.isArray(handoffs)) return [];
  return handoffs.flatMap((handoff: unknown) => {
    if (typeof handoff !== "object" || handoff === null) return [];
    const { callId, name, arguments: args } = handoff as Record<string, unknown>;
    return typeof callId === "string" && typeof name === "string" && typeof args === "string"
      ? [{ callId, name, arguments: args }]
      : [];
  });
}
