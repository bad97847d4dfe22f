import * as z from "zod";
import type { ConversationItem } from "../../../runtime/providers/index.js";
import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import { DEFAULT_HOSTED_TOOLS_SETTING, type HostedToolsSetting } from "../hosted-tools.js";
import { MAX_INPUT_ITEMS } from "../limits.js";
import { type JsonObject, quoteValue, requiredString } from "../request/request-fields.js";
import {
  optionalBoolean,
  optionalPositiveInteger,
  optionalString,
  parseRequestShape,
  readWith,
} from "../request/request-schema.js";
import { joinInstructions, NOTHING_TO_ANSWER, type TurnRequest } from "../request/turn-request.js";
import { readContentBlock } from "./messages-content-blocks.js";
import { parseMessagesTools, readMcpServers, readMessagesToolChoice } from "./parse-messages-tools.js";

/** What one message gives the run: instruction text (a system message) or conversation items. */
type MessagesEntry = { instruction: string } | { items: ConversationItem[] };

const message = z
  .object(
    {
      role: z.enum(["system", "user", "assistant"], {
        error: '{param} must be "user" or "assistant" (a system prompt goes in the top-level "system").',
      }),
    },
    { error: "{param} must be an object." },
  )
  .loose()
  .pipe(
    z.discriminatedUnion("role", [
      z
        .object({ role: z.literal("system"), content: readWith(readTextBlocks) })
        .transform((raw): MessagesEntry => ({ instruction: raw.content })),
      z
        .object({ role: z.literal("user"), content: readWith(readUserContent) })
        .transform((raw): MessagesEntry => ({ items: raw.content })),
      z
        .object({ role: z.literal("assistant"), content: readWith(readAssistantContent) })
        .transform((raw): MessagesEntry => ({ items: raw.content })),
    ]),
  );

/**
 * A `POST /v1/messages` body for one `gateway.hostedTools` setting; fields are checked in this order, and
 * fields not named are ignored.
 */
function messagesBody(setting: HostedToolsSetting) {
  return z.object(
    {
      stream: optionalBoolean,
      tool_choice: readWith((value) => readMessagesToolChoice({ tool_choice: value })),
      // Accepted and not enforced: a stop sequence could cut a run between its tool calls.
      stop_sequences: z
        .custom<string[]>(
          (value) => Array.isArray(value) && value.every((entry) => typeof entry === "string"),
          {
            error: "{param} must be an array of strings.",
          },
        )
        .nullish(),
      system: readWith((value, param) =>
        value === undefined || value === null ? undefined : readTextBlocks(value, param),
      ),
      messages: z
        .array(z.unknown(), { error: "messages is required: an array of { role, content } messages." })
        .max(MAX_INPUT_ITEMS, { error: `messages may hold at most ${MAX_INPUT_ITEMS} messages.` })
        .pipe(z.array(message))
        .refine((entries) => entries.some((entry) => "items" in entry && entry.items.length > 0), {
          error: `{param} ${NOTHING_TO_ANSWER}`,
        }),
      tools: readWith((value) => parseMessagesTools({ tools: value }, setting)),
      mcp_servers: readWith((value) => readMcpServers(value, setting)),
      max_tokens: optionalPositiveInteger,
      model: optionalString,
    },
    { error: "the request body must be a JSON object." },
  );
}

const messagesBodies: Record<HostedToolsSetting, ReturnType<typeof messagesBody>> = {
  omit: messagesBody("omit"),
  reject: messagesBody("reject"),
};

/**
 * Reads a `POST /v1/messages` (or `/v1/messages/count_tokens`) body (Anthropic Messages API) into a turn
 * request; bad input is a 400 whose message names the field. `system` (a string or text blocks) and any
 * `system` message become the run's instructions; user and assistant content blocks become the conversation
 * (`messages-content-blocks.ts` has the rule for each block type); client `tools` are the run's client tools,
 * hosted tools and `mcp_servers` are left out and listed (or refused under `hostedTools: "reject"`);
 * `max_tokens` caps each model request. `tool_choice` and `stop_sequences` are checked and not enforced;
 * every other field (`metadata`, `thinking`, `temperature`, `context_management`, …) is ignored.
 */
export function parseMessagesRequest(
  body: unknown,
  hostedTools: HostedToolsSetting = DEFAULT_HOSTED_TOOLS_SETTING,
): TurnRequest {
  const read = parseRequestShape(messagesBodies[hostedTools], body);
  const items = read.messages.flatMap((entry) => ("items" in entry ? entry.items : []));
  const request: TurnRequest = { inputParam: "messages", items, clientTools: read.tools.clientTools };
  const omittedHostedTools = [...new Set([...read.tools.omittedHostedTools, ...read.mcp_servers])];
  if (omittedHostedTools.length > 0) request.omittedHostedTools = omittedHostedTools;
  const joined = joinInstructions([
    ...(read.system === undefined ? [] : [read.system]),
    ...read.messages.flatMap((entry) => ("instruction" in entry ? [entry.instruction] : [])),
  ]);
  if (joined !== undefined) request.instructions = joined;
  if (read.max_tokens != null) request.maxOutputTokens = read.max_tokens;
  if (read.model != null) request.model = read.model;
  if (read.stream === true) request.stream = true;
  return request;
}

/**
 * User content: text blocks (adjacent ones, and the text other blocks stand for, joined by newlines) and
 * `tool_result` blocks, in order.
 */
function readUserContent(content: unknown, param: string): ConversationItem[] {
  if (typeof content === "string") return [{ type: "message", role: "user", text: content }];
  const items: ConversationItem[] = [];
  const texts: string[] = [];
  const flush = () => {
    if (texts.length > 0) items.push({ type: "message", role: "user", text: texts.splice(0).join("\n") });
  };
  for (const [index, block] of contentBlocks(content, param).entries()) {
    const blockParam = `${param}[${index}]`;
    if (block.type === "tool_result") {
      flush();
      items.push(readToolResult(block, blockParam));
      continue;
    }
    const read = readContentBlock(block, blockParam, "user");
    if (read !== undefined) texts.push(read);
  }
  flush();
  return items;
}

/**
 * Assistant content resent as history: text and `tool_use` blocks, in order; thinking blocks and the blocks
 * of hosted tools are skipped (`messages-content-blocks.ts`).
 */
function readAssistantContent(content: unknown, param: string): ConversationItem[] {
  if (typeof content === "string") {
    return content === "" ? [] : [{ type: "message", role: "assistant", text: content }];
  }
  const items: ConversationItem[] = [];
  const texts: string[] = [];
  const flush = () => {
    const text = texts.splice(0).join("\n");
    if (text !== "") items.push({ type: "message", role: "assistant", text });
  };
  for (const [index, block] of contentBlocks(content, param).entries()) {
    const blockParam = `${param}[${index}]`;
    if (block.type === "tool_use") {
      flush();
      items.push(readToolUse(block, blockParam));
      continue;
    }
    const read = readContentBlock(block, blockParam, "assistant");
    if (read !== undefined) texts.push(read);
  }
  flush();
  return items;
}

function readToolUse(block: JsonObject, param: string): ConversationItem {
  const input = block.input ?? {};
  if (!isObjectRecord(input)) throw invalidRequest(`${param}.input`, `${param}.input must be an object.`);
  return {
    type: "function_call",
    callId: requiredId(block, "id", param),
    name: requiredString(block, "name", `${param}.name`),
    arguments: JSON.stringify(input),
  };
}

function readToolResult(block: JsonObject, param: string): ConversationItem {
  const isError = block.is_error;
  if (isError !== undefined && isError !== null && typeof isError !== "boolean") {
    throw invalidRequest(`${param}.is_error`, `${param}.is_error must be true or false.`);
  }
  const content = block.content;
  const text =
    content === undefined || content === null ? "" : readToolResultContent(content, `${param}.content`);
  const output: ConversationItem = {
    type: "function_call_output",
    callId: requiredId(block, "tool_use_id", param),
    output: text,
  };
  // Kept on the item: a provider that has the flag (Anthropic's `is_error`) passes it on.
  if (isError === true) output.isError = true;
  return output;
}

/** A string, or an array of text blocks joined by newlines (a `system` prompt, a system message). */
function readTextBlocks(value: unknown, param: string): string {
  if (typeof value === "string") return value;
  return contentBlocks(value, param)
    .map((block, index) => {
      const blockParam = `${param}[${index}]`;
      if (block.type !== "text") {
        throw invalidRequest(
          `${blockParam}.type`,
          `${blockParam}.type ${quoteValue(block.type)} is not supported here: send "text" blocks only.`,
          "unsupported_content",
        );
      }
      return requiredString(block, "text", `${blockParam}.text`);
    })
    .join("\n");
}

/** A tool result's content: a string, or blocks read as user blocks are, joined by newlines. */
function readToolResultContent(value: unknown, param: string): string {
  if (typeof value === "string") return value;
  return contentBlocks(value, param)
    .flatMap((block, index) => readContentBlock(block, `${param}[${index}]`, "tool_result") ?? [])
    .join("\n");
}

function contentBlocks(value: unknown, param: string): JsonObject[] {
  if (!Array.isArray(value)) {
    throw invalidRequest(param, `${param} must be a string or an array of content blocks.`);
  }
  return value.map((block, index) => {
    const blockParam = `${param}[${index}]`;
    if (!isObjectRecord(block) || typeof block.type !== "string") {
      throw invalidRequest(blockParam, `${blockParam} must be a content block with a "type".`);
    }
    return block;
  });
}

function requiredId(block: JsonObject, key: string, param: string): string {
  const id = requiredString(block, key, `${param}.${key}`);
  if (id === "") throw invalidRequest(`${param}.${key}`, `${param}.${key} must not be empty.`);
  return id;
}
