import { type ProviderErrorContext, reportedFailureError, streamEndedEarlyError } from "./provider-error.js";
import { readField } from "./read-json.js";

/** The Messages API's name in failure messages. */
export const MESSAGES_API = "Anthropic Messages";

type Block = Record<string, unknown>;

/**
 * Reads a Messages event stream back into the message a non-stream request returns: `message_start` gives
 * the message (id, model, usage so far), `content_block_start` each block, `content_block_delta` its
 * pieces (`text_delta` text, handed on to `onTextDelta` in order; `input_json_delta` pieces joined and parsed
 * into the `tool_use` block's `input` at `content_block_stop`), `message_delta` the `stop_reason` and the
 * final usage (its non-null counts replace the earlier ones: they are cumulative). Resolves at
 * `message_stop`; a stream that ends before it rejects as incomplete. An `error` event rejects with the
 * provider's message (the client reports most of them itself, as an API error).
 */
export async function readMessagesStream(
  events: AsyncIterable<unknown>,
  onTextDelta: (delta: string) => void,
  context: ProviderErrorContext,
): Promise<unknown> {
  let message: Block | undefined;
  const blocks: Block[] = [];
  const argumentText = new Map<number, string>();
  for await (const event of events) {
    const type = readField(event, "type");
    if (type === "message_start") {
      message = { ...asBlock(readField(event, "message")) };
    } else if (type === "content_block_start") {
      blocks[blockIndex(event)] = { ...asBlock(readField(event, "content_block")) };
    } else if (type === "content_block_delta") {
      const index = blockIndex(event);
      const block = blocks[index];
      const delta = readField(event, "delta");
      const deltaType = readField(delta, "type");
      if (deltaType === "text_delta" && block !== undefined) {
        const text = readField(delta, "text");
        if (typeof text === "string") {
          block.text = `${typeof block.text === "string" ? block.text : ""}${text}`;
          onTextDelta(text);
        }
      } else if (deltaType === "input_json_delta") {
        const piece = readField(delta, "partial_json");
        if (typeof piece === "string") argumentText.set(index, (argumentText.get(index) ?? "") + piece);
      }
    } else if (type === "content_block_stop") {
      const index = blockIndex(event);
      const json = argumentText.get(index);
      const block = blocks[index];
      if (json !== undefined && block !== undefined) block.input = parsedInput(json);
    } else if (type === "message_delta") {
      if (message === undefined) continue;
      const delta = readField(event, "delta");
      for (const key of ["stop_reason", "stop_sequence"])
        if (readField(delta, key) !== undefined) message[key] = readField(delta, key);
      message.usage = mergedUsage(readField(message, "usage"), readField(event, "usage"));
    } else if (type === "message_stop") {
      if (message === undefined) break;
      return { ...message, content: blocks.filter((block) => block !== undefined) };
    } else if (type === "error") {
      const said = readField(readField(event, "error"), "message");
      throw reportedFailureError(
        context,
        typeof said === "string" && said.trim().length > 0 ? said : "the stream reported an error",
      );
    }
  }
  throw streamEndedEarlyError(context, MESSAGES_API, "its final event (message_stop)");
}

/** The `input` of a streamed `tool_use` block: its JSON pieces parsed, or the text as is when they do not parse. */
function parsedInput(json: string): unknown {
  if (json.trim().length === 0) return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    // Cut off (max_tokens) or broken: the runner tells the model its arguments are not valid JSON.
    return json;
  }
}

function mergedUsage(before: unknown, after: unknown): Block {
  const merged: Block = { ...asBlock(before) };
  for (const [key, value] of Object.entries(asBlock(after))) if (value !== null) merged[key] = value;
  return merged;
}

function blockIndex(event: unknown): number {
  const index = readField(event, "index");
  return typeof index === "number" && Number.isSafeInteger(index) && index >= 0 ? index : 0;
}

function asBlock(value: unknown): Block {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Block) : {};
}
