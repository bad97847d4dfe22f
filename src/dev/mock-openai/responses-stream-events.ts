import type { ResponsesStreamEventName } from "../../runtime/wire/index.js";
import type { MockOutputItem, MockResponse } from "./responses-api.js";
import type { StreamFrame } from "./stream-frame.js";
import { argumentPieces, wordPieces } from "./stream-pieces.js";

/**
 * A Responses answer as the official stream of semantic events: `response.created` and
 * `response.in_progress` (the response without output or usage), then for each output item
 * `response.output_item.added`, its text (`response.content_part.added`, one `response.output_text.delta`
 * per word, `response.output_text.done`, `response.content_part.done`) or its arguments
 * (`response.function_call_arguments.delta` pieces, `.done`), `response.output_item.done`; and last
 * `response.completed` carrying `answer` itself, the object the non-stream call returns. Each event has its
 * type as the SSE `event:` name and a `sequence_number` counting from 0. No `[DONE]` follows.
 */
export function responsesStreamEvents(answer: MockResponse): StreamFrame[] {
  const frames: StreamFrame[] = [];
  const emit = (type: ResponsesStreamEventName, fields: Record<string, unknown>) => {
    frames.push({
      event: type,
      data: JSON.stringify({ type, sequence_number: frames.length, ...fields }),
      ...(type.endsWith(".delta") ? { piece: true as const } : {}),
    });
  };
  const started: MockResponse = {
    ...answer,
    status: "in_progress",
    output: [],
    output_text: "",
    usage: null,
  };
  emit("response.created", { response: started });
  emit("response.in_progress", { response: started });
  answer.output.forEach((item, outputIndex) => {
    emit("response.output_item.added", { output_index: outputIndex, item: openedItem(item) });
    if (item.type === "function_call") {
      const place = { item_id: item.id, output_index: outputIndex };
      for (const delta of argumentPieces(item.arguments))
        emit("response.function_call_arguments.delta", { ...place, delta });
      emit("response.function_call_arguments.done", { ...place, name: item.name, arguments: item.arguments });
    } else {
      item.content.forEach((part, contentIndex) => {
        const place = { item_id: item.id, output_index: outputIndex, content_index: contentIndex };
        emit("response.content_part.added", { ...place, part: { ...part, text: "" } });
        for (const delta of wordPieces(part.text))
          emit("response.output_text.delta", { ...place, delta, logprobs: [] });
        emit("response.output_text.done", { ...place, text: part.text, logprobs: [] });
        emit("response.content_part.done", { ...place, part });
      });
    }
    emit("response.output_item.done", { output_index: outputIndex, item });
  });
  emit("response.completed", { response: answer });
  return frames;
}

/** An output item as announced before its content streams: in progress, without text or arguments. */
function openedItem(item: MockOutputItem): unknown {
  if (item.type === "function_call") return { ...item, arguments: "", status: "in_progress" };
  return { ...item, content: [], status: "in_progress" };
}
