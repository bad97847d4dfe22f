import type { MessagesStreamEventName } from "../../runtime/wire/index.js";
import type { MockMessage } from "./messages-api.js";
import type { StreamFrame } from "./stream-frame.js";
import { argumentPieces, wordPieces } from "./stream-pieces.js";

/**
 * A Messages answer as Anthropic's stream of events, which add up to `answer`: `message_start` (the message
 * without content, `stop_reason: null`, its input usage and `output_tokens: 1`), a `ping`, then per block
 * `content_block_start` (a `text` block with `text: ""`, or a `tool_use` block with `input: {}`), its
 * deltas (`text_delta` per word, `input_json_delta` per piece of the JSON input) and
 * `content_block_stop`; then `message_delta` (the `stop_reason` and the whole usage) and `message_stop`.
 * Each event has its type as the SSE `event:` name and in its data.
 */
export function messagesStreamEvents(answer: MockMessage): StreamFrame[] {
  const frames: StreamFrame[] = [];
  const emit = (type: MessagesStreamEventName, fields: Record<string, unknown> = {}, piece = false) => {
    frames.push({
      event: type,
      data: JSON.stringify({ type, ...fields }),
      ...(piece ? { piece: true as const } : {}),
    });
  };
  emit("message_start", {
    message: {
      ...answer,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...answer.usage, output_tokens: 1 },
    },
  });
  emit("ping");
  answer.content.forEach((block, index) => {
    if (block.type === "text") {
      emit("content_block_start", { index, content_block: { ...block, text: "" } });
      for (const text of wordPieces(block.text))
        emit("content_block_delta", { index, delta: { type: "text_delta", text } }, true);
    } else {
      emit("content_block_start", { index, content_block: { ...block, input: {} } });
      for (const partial of argumentPieces(JSON.stringify(block.input)))
        emit(
          "content_block_delta",
          { index, delta: { type: "input_json_delta", partial_json: partial } },
          true,
        );
    }
    emit("content_block_stop", { index });
  });
  emit("message_delta", {
    delta: { stop_reason: answer.stop_reason, stop_sequence: null },
    usage: answer.usage,
  });
  emit("message_stop");
  return frames;
}
