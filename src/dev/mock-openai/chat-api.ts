import type { ConversationItem } from "../../runtime/providers/index.js";
import { MockRequestError } from "./openai-error.js";
import { contentText, field, MOCK_MODEL_ID, plannerInput, readTools, requestModel } from "./planner-input.js";
import type { MockTurn } from "./responses-api.js";
import { type AnswerContext, usageFigures } from "./usage-figures.js";

/**
 * Reads a `POST /v1/chat/completions` body: `messages` (system and developer messages are instructions and
 * skipped; an assistant message's `tool_calls` become function calls; `tool` messages their outputs) and
 * the function tools. Throws MockRequestError for a body the real API would refuse too.
 */
export function readChatRequest(body: unknown): MockTurn {
  const messages = field(body, "messages");
  if (!Array.isArray(messages) || messages.length === 0)
    throw new MockRequestError("messages is required: a non-empty list of messages.", "messages");
  const items = messages.flatMap(readMessage);
  return {
    model: requestModel(body, MOCK_MODEL_ID),
    planner: plannerInput(items, readTools(field(body, "tools"))),
  };
}

function readMessage(message: unknown, index: number): ConversationItem[] {
  const role = field(message, "role");
  const text = contentText(field(message, "content"));
  if (role === "user") return [{ type: "message", role: "user", text }];
  if (role === "tool") {
    const callId = field(message, "tool_call_id");
    if (typeof callId !== "string")
      throw new MockRequestError(
        `messages[${index}]: a tool message needs tool_call_id.`,
        `messages[${index}]`,
      );
    return [{ type: "function_call_output", callId, output: text }];
  }
  if (role !== "assistant") return [];
  const items: ConversationItem[] = text.length > 0 ? [{ type: "message", role: "assistant", text }] : [];
  const toolCalls = field(message, "tool_calls");
  for (const call of Array.isArray(toolCalls) ? toolCalls : []) {
    const callId = field(call, "id");
    const fn = field(call, "function");
    const name = field(fn, "name");
    const args = field(fn, "arguments");
    if (typeof callId !== "string" || typeof name !== "string")
      throw new MockRequestError(
        `messages[${index}]: every tool call needs an id and function.name.`,
        `messages[${index}]`,
      );
    items.push({ type: "function_call", callId, name, arguments: typeof args === "string" ? args : "{}" });
  }
  return items;
}

/** One tool call of a mock Chat Completions answer. */
export type MockToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

/** A mock Chat Completions answer: one choice; streamed, it is told as chunks that add up to it. */
export type MockChatCompletion = {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: [
    {
      index: 0;
      message: { role: "assistant"; content: string | null; refusal: null; tool_calls?: MockToolCall[] };
      logprobs: null;
      finish_reason: "tool_calls" | "stop";
    },
  ];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
};

/** The planned items as a Chat Completions answer: one choice whose message holds the text and tool calls. */
export function chatAnswer(plan: readonly ConversationItem[], context: AnswerContext): MockChatCompletion {
  const texts = plan.flatMap((item) => (item.type === "message" ? [item.text] : []));
  const toolCalls = plan.flatMap((item): MockToolCall[] =>
    item.type === "function_call"
      ? [{ id: item.callId, type: "function", function: { name: item.name, arguments: item.arguments } }]
      : [],
  );
  const usage = usageFigures(plan, context.requestBytes);
  return {
    id: `chatcmpl-${context.cursor}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: context.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: texts.length > 0 ? texts.join("\n") : null,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: {
      prompt_tokens: usage.inputTokens,
      completion_tokens: usage.outputTokens,
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  };
}
