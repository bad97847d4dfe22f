import type { RunResult } from "../../../runtime/runner/index.js";
import { newId, unixSeconds } from "../response-ids.js";

/** One tool call of a chat completion message. */
export type ChatToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

/** The body of a successful `POST /v1/chat/completions`, in the OpenAI `chat.completion` shape. */
export type ChatCompletionObject = {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: { role: "assistant"; content: string | null; refusal: null; tool_calls?: ChatToolCall[] };
    finish_reason: "stop" | "tool_calls" | "length";
    logprobs: null;
  }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
};

/**
 * Renders a run that did not fail as a chat completion: the assistant text as `content`, client function
 * calls as `tool_calls` (`finish_reason: "tool_calls"`), a run cut short as `finish_reason: "length"`.
 */
export function toChatCompletionObject(result: RunResult): ChatCompletionObject {
  const toolCalls: ChatToolCall[] = result.output.flatMap((item) =>
    item.type === "function_call"
      ? [
          {
            id: item.callId,
            type: "function" as const,
            function: { name: item.name, arguments: item.arguments },
          },
        ]
      : [],
  );
  const message: ChatCompletionObject["choices"][number]["message"] = {
    role: "assistant",
    content: result.text.length > 0 || toolCalls.length === 0 ? result.text : null,
    refusal: null,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    id: newId("chatcmpl"),
    object: "chat.completion",
    created: unixSeconds(),
    model: result.model,
    choices: [
      { index: 0, message, finish_reason: finishReason(result, toolCalls.length > 0), logprobs: null },
    ],
    usage: {
      prompt_tokens: result.usage.inputTokens,
      completion_tokens: result.usage.outputTokens,
      total_tokens: result.usage.inputTokens + result.usage.outputTokens,
    },
  };
}

/** `length` for a run cut short, `tool_calls` when it hands calls back, else `stop`. */
export function finishReason(result: RunResult, hasToolCalls: boolean): "stop" | "tool_calls" | "length" {
  if (result.status === "incomplete") return "length";
  return result.status === "requires_action" || hasToolCalls ? "tool_calls" : "stop";
}
