import type OpenAI from "openai";
import { argumentsText, type ParsedAnswer, readField, readUsage, withCachedTokens } from "./read-json.js";
import { toolParameters } from "./tool-parameters.js";
import type { ConversationItem, ProviderRequest } from "./types.js";

type ResponsesBody = OpenAI.Responses.ResponseCreateParamsNonStreaming;
type ResponsesInputItem = OpenAI.Responses.ResponseInputItem;

/**
 * The Responses API body for a request: `instructions`, the conversation as `input` items (messages,
 * `function_call`, `function_call_output`), tools as non-strict functions, and `store: false` (toolsift
 * keeps the conversation itself). `tools` is left out when there are none.
 */
export function toResponsesBody(request: ProviderRequest): ResponsesBody {
  const body: ResponsesBody = {
    model: request.model,
    instructions: request.instructions,
    input: request.input.map(toResponsesItem),
    store: false,
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: toolParameters(tool.parameters),
      strict: false,
    }));
  }
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  return body;
}

function toResponsesItem(item: ConversationItem): ResponsesInputItem {
  switch (item.type) {
    case "message":
      return { role: item.role, content: item.text };
    case "function_call":
      return { type: "function_call", call_id: item.callId, name: item.name, arguments: item.arguments };
    case "function_call_output":
      return { type: "function_call_output", call_id: item.callId, output: item.output };
  }
}

/**
 * The conversation items of a Responses API answer, in order: each `message` item becomes one assistant
 * message (its `output_text` and `refusal` parts joined), each `function_call` one function call. Other
 * item types (reasoning, built-in tools) are not part of toolsift's conversation and are skipped. Returns
 * `undefined` when the answer has no `output` list, so the caller can report a malformed answer.
 */
export function fromResponsesAnswer(answer: unknown): ParsedAnswer | undefined {
  const output = readField(answer, "output");
  if (!Array.isArray(output)) return undefined;
  const items: ConversationItem[] = [];
  for (const item of output) {
    const type = readField(item, "type");
    if (type === "message") {
      const text = messageText(readField(item, "content"));
      if (text.length > 0) items.push({ type: "message", role: "assistant", text });
    } else if (type === "function_call") {
      const callId = readField(item, "call_id");
      const name = readField(item, "name");
      const args = readField(item, "arguments");
      if (typeof callId === "string" && typeof name === "string")
        items.push({ type: "function_call", callId, name, arguments: argumentsText(args) });
    }
  }
  const rawUsage = readField(answer, "usage");
  const usage = withCachedTokens(
    readUsage(rawUsage, "input_tokens", "output_tokens"),
    rawUsage,
    "input_tokens_details",
  );
  return usage ? { output: items, usage } : { output: items };
}

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const part of content) {
    const type = readField(part, "type");
    const text = type === "refusal" ? readField(part, "refusal") : readField(part, "text");
    if ((type === "output_text" || type === "refusal" || type === "text") && typeof text === "string")
      parts.push(text);
  }
  return parts.join("");
}

/** The provider's own message when a Responses answer says it failed (`status: "failed"`), else `undefined`. */
export function responsesFailure(answer: unknown): string | undefined {
  if (readField(answer, "status") !== "failed") return undefined;
  const message = readField(readField(answer, "error"), "message");
  return typeof message === "string" && message.trim().length > 0 ? message : "the response failed";
}
