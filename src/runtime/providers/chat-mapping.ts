import type OpenAI from "openai";
import { argumentsText, type ParsedAnswer, readField, readUsage, withCachedTokens } from "./read-json.js";
import { toolParameters } from "./tool-parameters.js";
import type { ConversationItem, ProviderRequest } from "./types.js";

type ChatBody = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type AssistantMessage = OpenAI.Chat.ChatCompletionAssistantMessageParam;

/** How the output-token cap is sent: OpenAI wants `max_completion_tokens`, most compatible servers `max_tokens`. */
export type ChatTokenCapField = "max_completion_tokens" | "max_tokens";

/**
 * The Chat Completions body for a request: the instructions as the system message, then the conversation.
 * Function calls of one assistant turn (and the assistant text just before or after them) become one
 * assistant message with several `tool_calls`; each output becomes a `tool` message with its
 * `tool_call_id`. `tools` is left out when there are none.
 */
export function toChatBody(request: ProviderRequest, tokenCapField: ChatTokenCapField): ChatBody {
  const messages: ChatMessage[] = [];
  if (request.instructions.length > 0) messages.push({ role: "system", content: request.instructions });
  let assistant: AssistantMessage | undefined;
  for (const item of request.input) {
    if (item.type === "message" && item.role === "user") {
      messages.push({ role: "user", content: item.text });
      assistant = undefined;
    } else if (item.type === "message") {
      if (assistant?.tool_calls !== undefined) {
        // Text after the calls of the same turn: the calls' message must stay right before their outputs.
        assistant.content = joinText(assistant.content, item.text);
        continue;
      }
      assistant = { role: "assistant", content: item.text };
      messages.push(assistant);
    } else if (item.type === "function_call") {
      if (assistant === undefined) {
        assistant = { role: "assistant", content: null };
        messages.push(assistant);
      }
      assistant.tool_calls = [
        ...(assistant.tool_calls ?? []),
        { id: item.callId, type: "function", function: { name: item.name, arguments: item.arguments } },
      ];
    } else {
      messages.push({ role: "tool", tool_call_id: item.callId, content: item.output });
      assistant = undefined;
    }
  }
  const body: ChatBody = { model: request.model, messages };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: {
        name: tool.name,
        description: tool.description,
        parameters: toolParameters(tool.parameters),
      },
    }));
  }
  if (request.maxOutputTokens !== undefined) body[tokenCapField] = request.maxOutputTokens;
  return body;
}

function joinText(content: AssistantMessage["content"], text: string): string {
  const before = typeof content === "string" ? content : "";
  return before.length > 0 ? `${before}\n${text}` : text;
}

/**
 * The conversation items of a Chat Completions answer: the first choice's text (or refusal) as one
 * assistant message, then one function call per `tool_calls` entry. Returns `undefined` when the answer has
 * no first choice with a message, so the caller can report a malformed answer.
 */
export function fromChatAnswer(answer: unknown): ParsedAnswer | undefined {
  const choices = readField(answer, "choices");
  const message = Array.isArray(choices) ? readField(choices[0], "message") : undefined;
  if (typeof message !== "object" || message === null) return undefined;
  const items: ConversationItem[] = [];
  const content = readField(message, "content");
  const refusal = readField(message, "refusal");
  const text = typeof content === "string" && content.length > 0 ? content : refusal;
  if (typeof text === "string" && text.length > 0) items.push({ type: "message", role: "assistant", text });
  const toolCalls = readField(message, "tool_calls");
  for (const call of Array.isArray(toolCalls) ? toolCalls : []) {
    const type = readField(call, "type");
    const callId = readField(call, "id");
    const fn = readField(call, "function");
    const name = readField(fn, "name");
    if ((type === "function" || type === undefined) && typeof callId === "string" && typeof name === "string")
      items.push({
        type: "function_call",
        callId,
        name,
        arguments: argumentsText(readField(fn, "arguments")),
      });
  }
  const rawUsage = readField(answer, "usage");
  const usage = withCachedTokens(
    readUsage(rawUsage, "prompt_tokens", "completion_tokens"),
    rawUsage,
    "prompt_tokens_details",
  );
  return usage ? { output: items, usage } : { output: items };
}
