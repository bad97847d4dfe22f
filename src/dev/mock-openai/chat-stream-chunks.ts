import { CHAT_CHUNK_OBJECT, CHAT_STREAM_DONE } from "../../runtime/wire/index.js";
import type { MockChatCompletion } from "./chat-api.js";
import type { StreamFrame } from "./stream-frame.js";
import { argumentPieces, wordPieces } from "./stream-pieces.js";

/** How the client asked for the stream (`stream_options`). */
export type ChatStreamOptions = {
  /** `stream_options.include_usage`: every chunk carries `usage: null` and a last chunk the usage. */
  includeUsage: boolean;
};

/**
 * A Chat Completions answer as the official stream of `chat.completion.chunk` objects, which add up to
 * `answer`: a first chunk with `role: "assistant"`, one content delta per word, then for each tool call a
 * delta with its `index`, `id`, `type` and `function.name` followed by argument pieces, a chunk with the
 * `finish_reason`, with `includeUsage` a chunk with empty `choices` and the usage, and `data: [DONE]`.
 */
export function chatStreamChunks(answer: MockChatCompletion, options: ChatStreamOptions): StreamFrame[] {
  const frames: StreamFrame[] = [];
  const usageField = options.includeUsage ? { usage: null } : {};
  const chunk = (choices: unknown[], extra: Record<string, unknown> = usageField, piece = false) => {
    frames.push({
      ...(piece ? { piece: true as const } : {}),
      data: JSON.stringify({
        id: answer.id,
        object: CHAT_CHUNK_OBJECT,
        created: answer.created,
        model: answer.model,
        choices,
        ...extra,
      }),
    });
  };
  const delta = (fields: Record<string, unknown>, finishReason: string | null = null, piece = false) =>
    chunk([{ index: 0, delta: fields, logprobs: null, finish_reason: finishReason }], usageField, piece);

  const [choice] = answer.choices;
  const { content, tool_calls: toolCalls = [] } = choice.message;
  delta({ role: "assistant", content: "", refusal: null });
  for (const piece of wordPieces(content ?? "")) delta({ content: piece }, null, true);
  toolCalls.forEach((call, index) => {
    delta({
      tool_calls: [
        { index, id: call.id, type: call.type, function: { name: call.function.name, arguments: "" } },
      ],
    });
    for (const piece of argumentPieces(call.function.arguments))
      delta({ tool_calls: [{ index, function: { arguments: piece } }] }, null, true);
  });
  delta({}, choice.finish_reason);
  if (options.includeUsage) chunk([], { usage: answer.usage });
  frames.push({ data: CHAT_STREAM_DONE });
  return frames;
}
