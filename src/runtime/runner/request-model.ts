import type { ConversationItem, Provider, ProviderResponse } from "../providers/index.js";
import type { RunEvent } from "../run-surface/index.js";
import type { RunLog } from "../session-log/index.js";
import type { FittedHistory } from "./fit-history.js";
import type { PreparedRun } from "./prepare-run.js";
import { untilAborted } from "./until-aborted.js";

/** Options of requestModel. */
export type RequestModelOptions = {
  provider: Provider;
  /** The provider's model id. */
  model: string;
  prepared: PreparedRun;
  history: FittedHistory;
  /** Default: the provider's. */
  maxOutputTokens?: number;
  /** The provider request's number in the run (1 for the first). */
  turn: number;
  signal: AbortSignal;
  log: RunLog;
  /** With a listener, text is streamed as it arrives; otherwise each message is told whole. Default: none. */
  emit?: (event: RunEvent) => void;
};

/**
 * One provider request of a run: sends the history, learns the secrets of the calls it answers with, logs
 * the request and its output (not waited for: they batch, and the run summary settles them), and tells its
 * text and its end to the listener.
 */
export async function requestModel(options: RequestModelOptions): Promise<ProviderResponse> {
  const { provider, prepared, history, turn, signal, log, emit } = options;
  const runId = log.runId;
  let streamedText = false;
  const onTextDelta = emit
    ? (delta: string) => {
        if (delta === "" || signal.aborted) return;
        streamedText = true;
        emit({ type: "text-delta", runId, turn, delta });
      }
    : undefined;
  // The run timeout holds even against a provider that ignores the signal.
  const response = await untilAborted(
    provider.complete({
      model: options.model,
      instructions: prepared.systemPrompt,
      input: history.items,
      tools: prepared.providerTools,
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
      signal,
      ...(onTextDelta ? { onTextDelta } : {}),
    }),
    signal,
  );
  for (const item of response.output) if (item.type === "function_call") log.learnSecrets(item.arguments);
  log.queue({
    type: "model-request",
    provider: provider.id,
    model: options.model,
    declaredTools: prepared.providerTools.map((tool) => tool.name),
    declaredToolCount: prepared.providerTools.length,
    systemPromptChars: prepared.systemPrompt.length,
    requestBytes: response.requestBytes,
    ...(response.usage ? { usage: response.usage } : {}),
    ...(history.trimmed === undefined
      ? {}
      : { trimmed: { items: history.trimmed.items, chars: history.trimmed.chars } }),
  });
  log.queue({ type: "assistant-output", items: response.output });
  if (emit === undefined) return response;
  for (const item of messagesOf(response.output))
    if (item.text && !streamedText) emit({ type: "text-delta", runId, turn, delta: item.text });
  emit({ type: "model-request-finish", runId, turn, ...(response.usage ? { usage: response.usage } : {}) });
  return response;
}

/** The assistant messages among `items`, in order. */
export function messagesOf(
  items: readonly ConversationItem[],
): Extract<ConversationItem, { type: "message" }>[] {
  return items.filter(
    (item): item is Extract<ConversationItem, { type: "message" }> => item.type === "message",
  );
}
