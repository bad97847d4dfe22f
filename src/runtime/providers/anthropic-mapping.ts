import type Anthropic from "@anthropic-ai/sdk";
import { type ParsedAnswer, readField } from "./read-json.js";
import { toolParameters } from "./tool-parameters.js";
import type { ConversationItem, ProviderRequest, ProviderUsage } from "./types.js";

/**
 * `max_tokens` of an Anthropic request whose caller sets no `maxOutputTokens` (the Messages API requires
 * one): 4,096 is within every current Claude model's output limit.
 */
const DEFAULT_ANTHROPIC_MAX_TOKENS = 4_096;

type MessagesBody = Anthropic.MessageCreateParamsNonStreaming;
type MessageParam = Anthropic.MessageParam;
type BlockParam = Anthropic.ContentBlockParam;

/** The prompt-cache breakpoint toolsift sets: the default five-minute ephemeral cache. */
const CACHE_BREAKPOINT = { type: "ephemeral" } as const;

/**
 * The Messages API body for a request. The instructions are one `system` text block and the last declared
 * tool carries the second breakpoint: both get `cache_control: { type: "ephemeral" }`, so the stable prefix
 * (tools, then the system prompt with the directory) is cached across a run's requests. The conversation
 * becomes alternating messages: an assistant turn's text and function calls one assistant message of
 * `text` and `tool_use` blocks, the outputs that follow one user message of `tool_result` blocks (with
 * `is_error` for a failed tool). Empty texts are left out (the API refuses empty text blocks).
 * `max_tokens` is `maxOutputTokens`, else `DEFAULT_ANTHROPIC_MAX_TOKENS` (the API requires it).
 */
export function toMessagesBody(request: ProviderRequest): MessagesBody {
  const body: MessagesBody = {
    model: request.model,
    max_tokens: request.maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    messages: toMessages(request.input),
  };
  if (request.instructions.length > 0)
    body.system = [{ type: "text", text: request.instructions, cache_control: CACHE_BREAKPOINT }];
  if (request.tools.length > 0) {
    const last = request.tools.length - 1;
    body.tools = request.tools.map((tool, index) => ({
      name: tool.name,
      description: tool.description,
      input_schema: inputSchema(tool.parameters),
      ...(index === last ? { cache_control: CACHE_BREAKPOINT } : {}),
    }));
  }
  return body;
}

/** The conversation as Messages: consecutive items of one role share one message, blocks in order. */
export function toMessages(items: readonly ConversationItem[]): MessageParam[] {
  const messages: Array<{ role: "user" | "assistant"; content: BlockParam[] }> = [];
  for (const item of items) {
    const block = toBlock(item);
    if (block === undefined) continue;
    const role =
      item.type === "function_call" || (item.type === "message" && item.role === "assistant")
        ? "assistant"
        : "user";
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(block);
    else messages.push({ role, content: [block] });
  }
  return messages;
}

function toBlock(item: ConversationItem): BlockParam | undefined {
  switch (item.type) {
    case "message":
      return item.text.length > 0 ? { type: "text", text: item.text } : undefined;
    case "function_call":
      return { type: "tool_use", id: item.callId, name: item.name, input: callInput(item.arguments) };
    case "function_call_output":
      return {
        type: "tool_result",
        tool_use_id: item.callId,
        ...(item.output.length > 0 ? { content: item.output } : {}),
        ...(item.isError ? { is_error: true } : {}),
      };
  }
}

/**
 * A function call's arguments as the object `tool_use.input` must be. Arguments that are not a JSON object
 * (a model's broken JSON, kept in the history) are sent as `{}`: the runner already told the model they
 * were refused, and the API would reject the whole request over them.
 */
function callInput(args: string): Record<string, unknown> {
  try {
    const value = JSON.parse(args) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** A tool's schema as `input_schema`: an object schema, `type: "object"` added when the schema omits it. */
function inputSchema(parameters: unknown): Anthropic.Tool.InputSchema {
  const schema = toolParameters(parameters);
  return (schema.type === undefined ? { type: "object", ...schema } : schema) as Anthropic.Tool.InputSchema;
}

/** Why a Messages answer stopped, as toolsift acts on it. */
export type MessagesStop = "pause_turn" | "other";

/**
 * The conversation items of a Messages answer, in order: adjacent `text` blocks become one assistant
 * message, each `tool_use` block one function call (its `input` serialised as the arguments). Thinking,
 * server-tool and other blocks are not part of toolsift's conversation and are skipped. Usage counts every
 * input token: `input_tokens` plus the cache reads and writes Anthropic reports apart. Returns `undefined`
 * when the answer has no `content` list, so the caller can report a malformed answer.
 */
export function fromMessagesAnswer(answer: unknown): (ParsedAnswer & { stop: MessagesStop }) | undefined {
  const content = readField(answer, "content");
  if (!Array.isArray(content)) return undefined;
  const items: ConversationItem[] = [];
  for (const block of content) {
    const type = readField(block, "type");
    if (type === "text") {
      const text = readField(block, "text");
      if (typeof text !== "string" || text.length === 0) continue;
      const last = items.at(-1);
      if (last?.type === "message") last.text += text;
      else items.push({ type: "message", role: "assistant", text });
    } else if (type === "tool_use") {
      const callId = readField(block, "id");
      const name = readField(block, "name");
      const input = readField(block, "input");
      if (typeof callId === "string" && typeof name === "string")
        items.push({
          type: "function_call",
          callId,
          name,
          arguments: typeof input === "string" ? input : JSON.stringify(input ?? {}),
        });
    }
  }
  const usage = messagesUsage(readField(answer, "usage"));
  const stop: MessagesStop = readField(answer, "stop_reason") === "pause_turn" ? "pause_turn" : "other";
  return usage ? { output: items, usage, stop } : { output: items, stop };
}

/** Messages usage as `ProviderUsage`: `inputTokens` includes the cached tokens, which are also given apart. */
export function messagesUsage(usage: unknown): ProviderUsage | undefined {
  const input = count(readField(usage, "input_tokens"));
  const output = count(readField(usage, "output_tokens"));
  if (input === undefined || output === undefined) return undefined;
  const cacheRead = count(readField(usage, "cache_read_input_tokens"));
  const cacheCreation = count(readField(usage, "cache_creation_input_tokens"));
  return {
    inputTokens: input + (cacheRead ?? 0) + (cacheCreation ?? 0),
    outputTokens: output,
    ...(cacheRead === undefined ? {} : { cacheReadInputTokens: cacheRead }),
    ...(cacheCreation === undefined ? {} : { cacheCreationInputTokens: cacheCreation }),
  };
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}
