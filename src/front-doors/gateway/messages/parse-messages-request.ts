import type { ConversationItem } from "../../../runtime/providers/index.js";
import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import { DEFAULT_HOSTED_TOOLS_SETTING, type HostedToolsSetting } from "../hosted-tools.js";
import {
  itemObjects,
  type JsonObject,
  optionalPositiveInteger,
  quoteValue,
  readModel,
  readStream,
  requiredString,
} from "../request/request-fields.js";
import { joinInstructions, requireTurnItems, type TurnRequest } from "../request/turn-request.js";
import { readContentBlock } from "./messages-content-blocks.js";
import { parseMessagesTools, readMessagesToolChoice } from "./parse-messages-tools.js";

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
  if (!isObjectRecord(body)) throw invalidRequest(undefined, "the request body must be a JSON object.");
  const stream = readStream(body);
  readMessagesToolChoice(body);
  readStopSequences(body.stop_sequences);
  const instructionTexts: string[] = [];
  if (body.system !== undefined && body.system !== null) {
    instructionTexts.push(readTextBlocks(body.system, "system"));
  }
  const items = readMessages(body.messages, instructionTexts);
  requireTurnItems(items, "messages");
  const { clientTools, omittedHostedTools } = parseMessagesTools(body, hostedTools);
  const request: TurnRequest = { inputParam: "messages", items, clientTools };
  if (omittedHostedTools.length > 0) request.omittedHostedTools = omittedHostedTools;
  const joined = joinInstructions(instructionTexts);
  if (joined !== undefined) request.instructions = joined;
  const maxOutputTokens = optionalPositiveInteger(body, "max_tokens");
  if (maxOutputTokens !== undefined) request.maxOutputTokens = maxOutputTokens;
  const model = readModel(body);
  if (model !== undefined) request.model = model;
  if (stream) request.stream = true;
  return request;
}

/**
 * `stop_sequences` must be an array of strings; it is accepted and not enforced: the agent's answer ends
 * when its run does (a stop sequence could cut a run between its tool calls).
 */
function readStopSequences(value: unknown): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== "string")) {
    throw invalidRequest("stop_sequences", "stop_sequences must be an array of strings.");
  }
}

function readMessages(messages: unknown, instructionTexts: string[]): ConversationItem[] {
  const items: ConversationItem[] = [];
  const listed = itemObjects(
    messages,
    "messages",
    "messages is required: an array of { role, content } messages.",
    "messages",
  );
  for (const { raw, param } of listed) {
    const contentParam = `${param}.content`;
    switch (raw.role) {
      case "system":
        instructionTexts.push(readTextBlocks(raw.content, contentParam));
        break;
      case "user":
        items.push(...readUserContent(raw.content, contentParam));
        break;
      case "assistant":
        items.push(...readAssistantContent(raw.content, contentParam));
        break;
      default:
        throw invalidRequest(
          `${param}.role`,
          `${param}.role must be "user" or "assistant" (a system prompt goes in the top-level "system").`,
        );
    }
  }
  return items;
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
