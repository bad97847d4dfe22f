import type { ScriptedReply } from "./scripted-server.test-support.js";

/** One content block of a scripted Messages answer. */
export type ScriptedBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** Usage as Anthropic reports it: input tokens apart from the cache reads and writes. */
export const SCRIPTED_USAGE = {
  input_tokens: 11,
  output_tokens: 7,
  cache_creation_input_tokens: 300,
  cache_read_input_tokens: 1200,
};

/** A Messages API answer object with the given blocks and stop reason. */
export function messagesAnswer(blocks: readonly ScriptedBlock[], stopReason = "end_turn"): unknown {
  return {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: blocks,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: SCRIPTED_USAGE,
  };
}

/** A whole (non-stream) Messages answer. */
export function messagesReply(blocks: readonly ScriptedBlock[], stopReason = "end_turn"): ScriptedReply {
  return { status: 200, json: messagesAnswer(blocks, stopReason) };
}

/** An Anthropic error reply: `{ type: "error", error: { type, message } }`. */
export function anthropicErrorReply(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): ScriptedReply {
  return { status, headers, json: { type: "error", error: { type, message } } };
}

/** One named SSE event as Anthropic writes it: `event: <type>` and `data: { type, … }`. */
export function messagesEvent(type: string, fields: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
}

/**
 * The events of a streamed answer with these blocks: `message_start`, per block `content_block_start`,
 * its deltas (text in `textPieces`-sized words, tool input as JSON cut in two) and `content_block_stop`,
 * a `ping`, `message_delta` with the stop reason and the final usage, and `message_stop` unless cut short.
 */
export function messagesStreamFrames(
  blocks: readonly ScriptedBlock[],
  options: { stopReason?: string; withoutStop?: boolean } = {},
): string[] {
  const { output_tokens: _, ...startUsage } = SCRIPTED_USAGE;
  const frames = [
    messagesEvent("message_start", {
      message: {
        ...(messagesAnswer([], "end_turn") as Record<string, unknown>),
        content: [],
        stop_reason: null,
        usage: { ...startUsage, output_tokens: 1 },
      },
    }),
  ];
  blocks.forEach((block, index) => {
    if (block.type === "text") {
      frames.push(messagesEvent("content_block_start", { index, content_block: { type: "text", text: "" } }));
      for (const piece of block.text.match(/\S+\s*/gu) ?? [])
        frames.push(
          messagesEvent("content_block_delta", { index, delta: { type: "text_delta", text: piece } }),
        );
    } else {
      frames.push(
        messagesEvent("content_block_start", {
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        }),
      );
      const json = JSON.stringify(block.input);
      const half = Math.floor(json.length / 2);
      for (const piece of [json.slice(0, half), json.slice(half)])
        frames.push(
          messagesEvent("content_block_delta", {
            index,
            delta: { type: "input_json_delta", partial_json: piece },
          }),
        );
    }
    frames.push(messagesEvent("content_block_stop", { index }));
  });
  frames.push(messagesEvent("ping"));
  frames.push(
    messagesEvent("message_delta", {
      delta: { stop_reason: options.stopReason ?? "end_turn", stop_sequence: null },
      usage: { output_tokens: SCRIPTED_USAGE.output_tokens },
    }),
  );
  if (!options.withoutStop) frames.push(messagesEvent("message_stop"));
  return frames;
}
