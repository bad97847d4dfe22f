import type { ConversationItem, ProviderUsage } from "../../../runtime/providers/index.js";
import type { RunResult } from "../../../runtime/runner/index.js";

/** A content block of an answer on the Messages API. */
export type MessagesContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** Why an answer stopped, in Anthropic's words. */
export type MessagesStopReason = "end_turn" | "tool_use" | "max_tokens";

/** Anthropic's `usage`: `input_tokens` excludes the tokens read from or written to the prompt cache. */
export type MessagesUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
};

/** The body of a successful `POST /v1/messages`, in Anthropic's `message` shape. */
export type MessagesObject = {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: MessagesContentBlock[];
  stop_reason: MessagesStopReason | null;
  stop_sequence: null;
  usage: MessagesUsage;
};

/**
 * Renders a run that did not fail as an Anthropic message: each assistant message of the run as a `text`
 * block and each client tool call handed back as a `tool_use` block, in the run's order. `stop_reason` is
 * `tool_use` when calls are handed back, `max_tokens` for a run cut short, else `end_turn`.
 */
export function toMessagesObject(result: RunResult, id: string): MessagesObject {
  const content = result.output.flatMap((item) => contentBlockOf(item) ?? []);
  return {
    id,
    type: "message",
    role: "assistant",
    model: result.model,
    content,
    stop_reason: stopReason(
      result,
      content.some((block) => block.type === "tool_use"),
    ),
    stop_sequence: null,
    usage: messagesUsage(result.usage),
  };
}

/** The block of one run output item: a non-empty assistant message or a client tool call; else none. */
export function contentBlockOf(item: ConversationItem): MessagesContentBlock | undefined {
  if (item.type === "message" && item.role === "assistant" && item.text !== "") {
    return { type: "text", text: item.text };
  }
  if (item.type === "function_call") {
    return { type: "tool_use", id: item.callId, name: item.name, input: toolUseInput(item.arguments) };
  }
  return undefined;
}

/** `max_tokens` for a run cut short, `tool_use` when it hands calls back, else `end_turn`. */
export function stopReason(result: RunResult, hasToolUse: boolean): MessagesStopReason {
  if (result.status === "incomplete") return "max_tokens";
  return result.status === "requires_action" || hasToolUse ? "tool_use" : "end_turn";
}

/**
 * Anthropic's usage from the run's: `ProviderUsage.inputTokens` counts every input token, so the cache
 * reads and writes (0 when the provider reported none) are taken out of `input_tokens`, as Anthropic counts.
 */
export function messagesUsage(usage: ProviderUsage): MessagesUsage {
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const cacheCreation = usage.cacheCreationInputTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - cacheRead - cacheCreation),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: cacheRead,
  };
}

/**
 * A tool call's arguments as the `input` object of a `tool_use` block. The model's arguments are a JSON
 * object in practice; anything else (empty, not JSON, not an object) becomes `{}`, since Anthropic's
 * clients expect an object.
 */
export function toolUseInput(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Not JSON: no input the client could use.
  }
  return {};
}
