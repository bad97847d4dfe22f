import type { ConversationItem } from "../providers/index.js";
import { isObjectRecord } from "../schema/index.js";
import { invalidRequest } from "./gateway-error.js";
import { parseClientTools } from "./parse-client-tools.js";
import { readTextContent } from "./read-text-content.js";
import {
  itemObjects,
  type JsonObject,
  optionalPositiveInteger,
  optionalString,
  quoteValue,
  readModel,
  readStream,
  refuseToolChoice,
  requiredString,
} from "./request-fields.js";
import { joinInstructions, requireTurnItems, type TurnRequest } from "./turn-request.js";

/** Reads a `POST /v1/responses` body (OpenAI Responses API) into a turn request; bad input is a 400. */
export function parseResponsesRequest(body: unknown): TurnRequest {
  if (!isObjectRecord(body)) throw invalidRequest(undefined, "the request body must be a JSON object.");
  const stream = readStream(body);
  refuseToolChoice(body);
  const instructionTexts: string[] = [];
  const instructions = optionalString(body, "instructions");
  if (instructions !== undefined) instructionTexts.push(instructions);
  const items = readInput(body.input, instructionTexts);
  requireTurnItems(items, "input");
  const request: TurnRequest = { inputParam: "input", items, clientTools: parseClientTools(body.tools) };
  const joined = joinInstructions(instructionTexts);
  if (joined !== undefined) request.instructions = joined;
  const maxOutputTokens = optionalPositiveInteger(body, "max_output_tokens");
  if (maxOutputTokens !== undefined) request.maxOutputTokens = maxOutputTokens;
  const previousResponseId = optionalString(body, "previous_response_id");
  if (previousResponseId !== undefined && previousResponseId !== "") {
    request.previousResponseId = previousResponseId;
  }
  const model = readModel(body);
  if (model !== undefined) request.model = model;
  if (stream) request.stream = true;
  const store = body.store;
  if (store !== undefined && store !== null) {
    if (typeof store !== "boolean") throw invalidRequest("store", "store must be true or false.");
    request.store = store;
  }
  return request;
}

function readInput(input: unknown, instructionTexts: string[]): ConversationItem[] {
  if (typeof input === "string") return [{ type: "message", role: "user", text: input }];
  if (input === undefined || input === null) {
    throw invalidRequest("input", "input is required: a string or an array of input items.");
  }
  const items: ConversationItem[] = [];
  for (const { raw, param } of itemObjects(
    input,
    "input",
    "input must be a string or an array of input items.",
    "items",
  )) {
    const item = readItem(raw, param, instructionTexts);
    if (item !== undefined) items.push(item);
  }
  return items;
}

function readItem(raw: JsonObject, param: string, instructionTexts: string[]): ConversationItem | undefined {
  const type = raw.type ?? "message";
  if (type === "message") return readMessage(raw, param, instructionTexts);
  if (type === "function_call") {
    return {
      type: "function_call",
      callId: requiredCallId(raw, param),
      name: requiredString(raw, "name", `${param}.name`),
      arguments: requiredString(raw, "arguments", `${param}.arguments`),
    };
  }
  if (type === "function_call_output") {
    return {
      type: "function_call_output",
      callId: requiredCallId(raw, param),
      output: readTextContent(raw.output, `${param}.output`),
    };
  }
  if (typeof type !== "string") {
    throw invalidRequest(
      `${param}.type`,
      `${param}.type must be a string ("message", "function_call" or "function_call_output"), not ${quoteValue(type)}.`,
    );
  }
  throw invalidRequest(
    `${param}.type`,
    `${param}.type ${quoteValue(type)} is not supported: send messages, function_call and function_call_output items.`,
    "unsupported_input_item",
  );
}

function readMessage(
  raw: JsonObject,
  param: string,
  instructionTexts: string[],
): ConversationItem | undefined {
  const role = raw.role;
  const text = readTextContent(raw.content, `${param}.content`);
  if (role === "system" || role === "developer") {
    instructionTexts.push(text);
    return undefined;
  }
  if (role === "user" || role === "assistant") return { type: "message", role, text };
  throw invalidRequest(
    `${param}.role`,
    `${param}.role must be "user", "assistant", "system" or "developer".`,
  );
}

function requiredCallId(raw: JsonObject, param: string): string {
  const callId = requiredString(raw, "call_id", `${param}.call_id`);
  if (callId === "") throw invalidRequest(`${param}.call_id`, `${param}.call_id must not be empty.`);
  return callId;
}
