import { type ProviderErrorContext, streamEndedEarlyError } from "./provider-error.js";
import { readField } from "./read-json.js";

type ToolCallParts = { id?: string; type?: string; name?: string; arguments: string };

/**
 * Reads a Chat Completions chunk stream into the answer the same request would have got without streaming,
 * for `fromChatAnswer` to map: the first choice's `content` and `refusal` pieces joined (each handed on
 * to `onTextDelta` as it arrives), its `tool_calls` gathered by `index` (id, type and name as sent,
 * argument pieces joined), and the `usage` chunk. A stream that ends before a chunk with `finish_reason`
 * rejects as incomplete; the usage chunk is optional (servers that ignore `stream_options` send none).
 */
export async function readChatStream(
  chunks: AsyncIterable<unknown>,
  onTextDelta: (delta: string) => void,
  context: ProviderErrorContext,
): Promise<unknown> {
  let content: string | null = null;
  let refusal: string | null = null;
  let finishReason: string | undefined;
  let usage: unknown;
  let responseId: string | undefined;
  const toolCalls = new Map<number, ToolCallParts>();
  for await (const chunk of chunks) {
    const chunkUsage = readField(chunk, "usage");
    if (typeof chunkUsage === "object" && chunkUsage !== null) usage = chunkUsage;
    const chunkId = readField(chunk, "id");
    if (responseId === undefined && typeof chunkId === "string" && chunkId.length > 0) responseId = chunkId;
    const choices = readField(chunk, "choices");
    for (const choice of Array.isArray(choices) ? choices : []) {
      const index = readField(choice, "index");
      if (index !== 0 && index !== undefined) continue;
      const reason = readField(choice, "finish_reason");
      if (typeof reason === "string") finishReason = reason;
      const delta = readField(choice, "delta");
      const text = readField(delta, "content");
      if (typeof text === "string" && text.length > 0) {
        content = (content ?? "") + text;
        onTextDelta(text);
      }
      const refused = readField(delta, "refusal");
      if (typeof refused === "string" && refused.length > 0) {
        refusal = (refusal ?? "") + refused;
        // The mapping keeps a refusal only when there is no content: hand it on only then.
        if (content === null) onTextDelta(refused);
      }
      const calls = readField(delta, "tool_calls");
      for (const [position, call] of (Array.isArray(calls) ? calls : []).entries())
        addToolCallPiece(toolCalls, call, position);
    }
  }
  if (finishReason === undefined)
    throw streamEndedEarlyError(context, "Chat Completions", "a chunk with its finish_reason");
  const message = {
    role: "assistant",
    content,
    refusal,
    tool_calls: [...toolCalls.entries()]
      .sort(([left], [right]) => left - right)
      .map(([, parts]) => ({
        ...(parts.id === undefined ? {} : { id: parts.id }),
        ...(parts.type === undefined ? {} : { type: parts.type }),
        function: { name: parts.name, arguments: parts.arguments },
      })),
  };
  return {
    ...(responseId === undefined ? {} : { id: responseId }),
    choices: [{ index: 0, message, finish_reason: finishReason }],
    ...(usage ? { usage } : {}),
  };
}

/** Adds one `tool_calls` delta entry: the first piece of a call names it, later ones add arguments. */
function addToolCallPiece(toolCalls: Map<number, ToolCallParts>, call: unknown, position: number): void {
  const index = readField(call, "index");
  const key = typeof index === "number" && Number.isSafeInteger(index) ? index : position;
  const parts = toolCalls.get(key) ?? { arguments: "" };
  toolCalls.set(key, parts);
  const id = readField(call, "id");
  if (typeof id === "string" && id.length > 0) parts.id = id;
  const type = readField(call, "type");
  if (typeof type === "string") parts.type = type;
  const fn = readField(call, "function");
  const name = readField(fn, "name");
  if (typeof name === "string" && name.length > 0) parts.name = name;
  const piece = readField(fn, "arguments");
  if (typeof piece === "string") parts.arguments += piece;
}
