import type { ConversationItem } from "../../../runtime/providers/index.js";
import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import { parseClientTools } from "../request/parse-client-tools.js";
import { readTextContent } from "../request/read-text-content.js";
import {
  itemObjects,
  type JsonObject,
  optionalPositiveInteger,
  readModel,
  readStream,
  refuseToolChoice,
  requiredString,
} from "../request/request-fields.js";
import { joinInstructions, requireTurnItems, type TurnRequest } from "../request/turn-request.js";

/** Reads a `POST /v1/chat/completions` body into a turn request; bad input is a 400. */
export function parseChatRequest(body: unknown): TurnRequest {
  if (!isObjectRecord(body)) throw invalidRequest(undefined, "the request body must be a JSON object.");
  const stream = readStream(body);
  refuseToolChoice(body);
  if (body.functions !== undefined || body.function_call !== undefined) {
    throw invalidRequest(
      "functions",
      "functions and function_call are retired in the OpenAI API: send tools.",
    );
  }
  if (body.n !== undefined && body.n !== null && body.n !== 1) {
    throw invalidRequest("n", "n must be 1: the gateway answers with one choice.", "unsupported_parameter");
  }
  const instructionTexts: string[] = [];
  const items = readMessages(body.messages, instructionTexts);
  requireTurnItems(items, "messages");
  const request: TurnRequest = { inputParam: "messages", items, clientTools: parseClientTools(body.tools) };
  const joined = joinInstructions(instructionTexts);
  if (joined !== undefined) request.instructions = joined;
  const maxOutputTokens =
    optionalPositiveInteger(body, "max_completion_tokens") ?? optionalPositiveInteger(body, "max_tokens");
  if (maxOutputTokens !== undefined) request.maxOutputTokens = maxOutputTokens;
  const model = readModel(body);
  if (model !== undefined) request.model = model;
  if (stream) {
    request.stream = true;
    if (readIncludeUsage(body.stream_options)) request.includeUsage = true;
  }
  return request;
}

/** `stream_options.include_usage` (absent or null: false); anything but an object and a boolean is a 400. */
function readIncludeUsage(options: unknown): boolean {
  if (options === undefined || options === null) return false;
  if (!isObjectRecord(options)) throw invalidRequest("stream_options", "stream_options must be an object.");
  const include = options.include_usage;
  if (include === undefined || include === null) return false;
  if (typeof include !== "boolean") {
    throw invalidRequest(
      "stream_options.include_usage",
      "stream_options.include_usage must be true or false.",
    );
  }
  return include;
}

function readMessages(messages: unknown, instructionTexts: string[]): ConversationItem[] {
  const items: ConversationItem[] = [];
  for (const { raw, param } of itemObjects(
    messages,
    "messages",
    "messages is required: an array of messages.",
    "messages",
  ))
    items.push(...readMessage(raw, param, instructionTexts));
  return items;
}

function readMessage(raw: JsonObject, param: string, instructionTexts: string[]): ConversationItem[] {
  switch (raw.role) {
    case "system":
    case "developer":
      instructionTexts.push(readTextContent(raw.content, `${param}.content`));
      return [];
    case "user":
      return [{ type: "message", role: "user", text: readTextContent(raw.content, `${param}.content`) }];
    case "assistant":
      return readAssistant(raw, param);
    case "tool":
      return [
        {
          type: "function_call_output",
          callId: requiredId(raw, "tool_call_id", param),
          output: readTextContent(raw.content, `${param}.content`),
        },
      ];
    default:
      throw invalidRequest(
        `${param}.role`,
        `${param}.role must be "system", "developer", "user", "assistant" or "tool".`,
      );
  }
}

function readAssistant(raw: JsonObject, param: string): ConversationItem[] {
  const items: ConversationItem[] = [];
  const content = raw.content;
  if (content !== undefined && content !== null) {
    const text = readTextContent(content, `${param}.content`);
    if (text.length > 0) items.push({ type: "message", role: "assistant", text });
  }
  const calls = raw.tool_calls;
  if (calls === undefined || calls === null) return items;
  if (!Array.isArray(calls))
    throw invalidRequest(`${param}.tool_calls`, `${param}.tool_calls must be an array.`);
  calls.forEach((call, index) => {
    const callParam = `${param}.tool_calls[${index}]`;
    if (!isObjectRecord(call) || !isObjectRecord(call.function)) {
      throw invalidRequest(
        callParam,
        `${callParam} must be { id, type: "function", function: { name, arguments } }.`,
      );
    }
    if (call.type !== undefined && call.type !== "function") {
      throw invalidRequest(`${callParam}.type`, `${callParam}.type must be "function".`);
    }
    items.push({
      type: "function_call",
      callId: requiredId(call, "id", callParam),
      name: requiredString(call.function, "name", `${callParam}.function.name`),
      arguments: requiredString(call.function, "arguments", `${callParam}.function.arguments`),
    });
  });
  return items;
}

function requiredId(raw: JsonObject, key: string, param: string): string {
  const id = requiredString(raw, key, `${param}.${key}`);
  if (id === "") throw invalidRequest(`${param}.${key}`, `${param}.${key} must not be empty.`);
  return id;
}
