import { cutText } from "../../shared/text/index.js";
import type { ConversationItem } from "../providers/index.js";
import { MAX_LOGGED_OUTPUT_CHARS, type RunEvent, type RunSurface } from "../run-surface/index.js";
import type { RunLog } from "../session-log/index.js";
import type { ClientHandoff } from "./client-tools.js";
import { executeCall, type FunctionCall } from "./execute-call.js";

/** Options of runToolCalls. */
export type RunToolCallsOptions = {
  surface: RunSurface;
  signal: AbortSignal;
  /** The run's conversation: each answered call's output is added to it. */
  conversation: ConversationItem[];
  /** The client tool calls handed back so far: those are the client's to answer. */
  handoffs: ReadonlyMap<string, ClientHandoff>;
  log: RunLog;
  emit(event: RunEvent): void;
};

/**
 * Runs one response's tool calls at once, then, in the model's order, adds each output to the conversation
 * and logs it (not waited for), after learning the secrets it shows. True when a call ended the run.
 */
export async function runToolCalls(calls: FunctionCall[], options: RunToolCallsOptions): Promise<boolean> {
  const { surface, signal, conversation, handoffs, log, emit } = options;
  const results = await Promise.all(calls.map((call) => executeCall(call, surface, signal, emit)));
  let terminated = false;
  for (const [index, call] of calls.entries()) {
    const { result, text, attribution } = results[index]!;
    if (handoffs.has(call.callId)) continue; // the client answers this one
    log.learnSecrets(text);
    conversation.push({
      type: "function_call_output",
      callId: call.callId,
      output: text,
      ...(result.isError === true ? { isError: true as const } : {}),
    });
    log.queue({
      type: "tool-result",
      callId: call.callId,
      name: call.name,
      ...attribution,
      isError: result.isError === true,
      output: cutText(text, MAX_LOGGED_OUTPUT_CHARS),
    });
    if (result.terminate) terminated = true;
  }
  return terminated;
}
