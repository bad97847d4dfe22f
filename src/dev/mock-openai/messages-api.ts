import type { ConversationItem, ProviderTool } from "../../runtime/providers/index.js";
import { MockRequestError } from "./openai-error.js";
import { contentText, field, MOCK_MODEL_ID, plannerInput, requestModel } from "./planner-input.js";
import type { CacheFigures } from "./prompt-cache.js";
import type { MockTurn } from "./responses-api.js";
import { type AnswerContext, usageFigures } from "./usage-figures.js";

/**
 * Reads a `POST /v1/messages` body (Anthropic Messages): `max_tokens` (required, as by the real API),
 * `messages` (user content as a string or `text` and `tool_result` blocks; assistant content as `text`
 * and `tool_use` blocks; other blocks skipped), and the custom tools (`name`, `description`,
 * `input_schema`; server tools with another `type` skipped). `system` is read but ignored, like the
 * OpenAI routes' instructions. Throws MockRequestError for a body the real API would refuse too.
 */
export function readMessagesRequest(body: unknown): MockTurn {
  const maxTokens = field(body, "max_tokens");
  if (typeof maxTokens !== "number" || !Number.isSafeInteger(maxTokens) || maxTokens < 1)
    throw new MockRequestError("max_tokens is required: a whole number of at least 1.", "max_tokens");
  const messages = field(body, "messages");
  if (!Array.isArray(messages) || messages.length === 0)
    throw new MockRequestError("messages is required: a non-empty list of messages.", "messages");
  const system = field(body, "system");
  if (system !== undefined && typeof system !== "string" && !Array.isArray(system))
    throw new MockRequestError("system must be a string or a list of text blocks.", "system");
  const items = messages.flatMap(readMessage);
  return {
    model: requestModel(body, MOCK_MODEL_ID),
    planner: plannerInput(items, readMessagesTools(field(body, "tools"))),
  };
}

function readMessage(message: unknown, index: number): ConversationItem[] {
  const role = field(message, "role");
  // Claude Code puts context in `system` messages between turns: read but ignored, like `system`.
  if (role === "system") return [];
  if (role !== "user" && role !== "assistant")
    throw new MockRequestError(
      `messages.${index}.role must be "user", "assistant" or "system".`,
      `messages.${index}.role`,
    );
  const content = field(message, "content");
  if (typeof content === "string") return [{ type: "message", role, text: content }];
  if (!Array.isArray(content))
    throw new MockRequestError(
      `messages.${index}.content must be a string or a list of content blocks.`,
      `messages.${index}.content`,
    );
  const items: ConversationItem[] = [];
  // Text beside tool results (a client's reminders) belongs to the results, not to a new user turn.
  const answersTools = role === "user" && content.some((block) => field(block, "type") === "tool_result");
  for (const block of content) {
    const type = field(block, "type");
    if (type === "text") {
      if (answersTools) continue;
      const text = field(block, "text");
      const last = items.at(-1);
      if (typeof text !== "string") continue;
      if (last?.type === "message") last.text += text;
      else items.push({ type: "message", role, text });
    } else if (type === "tool_use" && role === "assistant") {
      const id = field(block, "id");
      const name = field(block, "name");
      if (typeof id !== "string" || typeof name !== "string")
        throw new MockRequestError(
          `messages.${index}: a tool_use block needs id and name.`,
          `messages.${index}.content`,
        );
      items.push({
        type: "function_call",
        callId: id,
        name,
        arguments: JSON.stringify(field(block, "input") ?? {}),
      });
    } else if (type === "tool_result" && role === "user") {
      const id = field(block, "tool_use_id");
      if (typeof id !== "string")
        throw new MockRequestError(
          `messages.${index}: a tool_result block needs tool_use_id.`,
          `messages.${index}.content`,
        );
      items.push({ type: "function_call_output", callId: id, output: contentText(field(block, "content")) });
    }
  }
  return items;
}

/** The custom tools of a Messages request (`{ name, description, input_schema }`); server tools are skipped. */
function readMessagesTools(tools: unknown): ProviderTool[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw new MockRequestError("tools must be a list of tool objects.", "tools");
  const result: ProviderTool[] = [];
  for (const tool of tools) {
    const type = field(tool, "type");
    if (type !== undefined && type !== "custom") continue;
    const name = field(tool, "name");
    if (typeof name !== "string" || name.length === 0)
      throw new MockRequestError("every tool needs a non-empty name.", "tools");
    const description = field(tool, "description");
    result.push({
      name,
      description: typeof description === "string" ? description : "",
      parameters: field(tool, "input_schema"),
    });
  }
  return result;
}

/** One content block of a mock Messages answer. */
export type MockContentBlock =
  | { type: "text"; text: string; citations: null }
  | { type: "tool_use"; id: string; name: string; input: unknown };

/** Usage as Anthropic reports it: `input_tokens` are the tokens neither read from nor written to the cache. */
export type MockMessagesUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
};

/** A mock Messages answer: the same object whether sent whole or told as stream events. */
export type MockMessage = {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: MockContentBlock[];
  stop_reason: "tool_use" | "end_turn";
  stop_sequence: null;
  usage: MockMessagesUsage;
};

/**
 * The planned items as a Messages answer: a `text` block per message and a `tool_use` block per call
 * (`input` the parsed arguments), `stop_reason` `tool_use` when there are calls, else `end_turn`. Usage:
 * the cache figures of the request's prompt-cache prefix, and `input_tokens` the rest of the request.
 */
export function messagesAnswer(
  plan: readonly ConversationItem[],
  context: AnswerContext,
  cache: CacheFigures,
): MockMessage {
  const content = plan.flatMap((item): MockContentBlock[] => {
    if (item.type === "message") return [{ type: "text", text: item.text, citations: null }];
    if (item.type === "function_call")
      return [{ type: "tool_use", id: item.callId, name: item.name, input: JSON.parse(item.arguments) }];
    return [];
  });
  const usage = usageFigures(plan, context.requestBytes);
  return {
    id: `msg_${context.cursor}`,
    type: "message",
    role: "assistant",
    model: context.model,
    content,
    stop_reason: content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: Math.max(0, usage.inputTokens - cache.readTokens - cache.creationTokens),
      output_tokens: usage.outputTokens,
      cache_creation_input_tokens: cache.creationTokens,
      cache_read_input_tokens: cache.readTokens,
    },
  };
}
