import type { ConversationItem } from "../../../runtime/providers/index.js";
import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import type { HostedToolsSetting } from "../hosted-tools.js";
import { modelToolName } from "../request/client-call-form.js";
import { readTextContent, readToolOutput } from "../request/read-text-content.js";
import {
  itemObjects,
  type JsonObject,
  optionalPositiveInteger,
  optionalString,
  quoteValue,
  readModel,
  readStream,
  requiredString,
} from "../request/request-fields.js";
import { joinInstructions, requireTurnItems, type TurnRequest } from "../request/turn-request.js";
import { parseResponsesTools } from "./parse-responses-tools.js";
import { checkAcceptedResponsesFields } from "./responses-accepted-fields.js";

/** How `parseResponsesRequest` treats what a client may declare; each default is written on the field. */
export type ResponsesParseOptions = {
  /** `gateway.hostedTools`: hosted tool types are left out and reported (`"omit"`, the default) or a 400. */
  hostedTools?: HostedToolsSetting;
};

/**
 * Item types a client echoes from earlier responses that carry nothing the agent's model can use: reasoning
 * and compaction items are opaque to any other model (and the session replays the model's own history),
 * hosted tool calls ran elsewhere or belong to hosted tool types the model was never given (their results
 * are in the messages after them), and an `item_reference` points at an item of an earlier response, which
 * the session already holds. They are dropped.
 */
const DROPPED_ITEM_TYPES: ReadonlySet<string> = new Set([
  "reasoning",
  "compaction",
  "item_reference",
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "computer_call",
  "computer_call_output",
  "mcp_call",
  "mcp_list_tools",
  "mcp_approval_request",
  "mcp_approval_response",
  "tool_search_call",
  "tool_search_output",
  "shell_call",
  "shell_call_output",
  "apply_patch_call",
  "apply_patch_call_output",
  "additional_tools",
  "compaction_trigger",
  "program",
  "program_output",
]);

/** The name a `local_shell_call` is kept under in the conversation (the model never had that hosted tool). */
const LOCAL_SHELL_CALL_NAME = "local_shell";

/** Reads a `POST /v1/responses` body (OpenAI Responses API) into a turn request; bad input is a 400. */
export function parseResponsesRequest(body: unknown, options: ResponsesParseOptions = {}): TurnRequest {
  if (!isObjectRecord(body)) throw invalidRequest(undefined, "the request body must be a JSON object.");
  const stream = readStream(body);
  checkAcceptedResponsesFields(body);
  const tools = parseResponsesTools(body.tools, options.hostedTools);
  const instructionTexts: string[] = [];
  const instructions = optionalString(body, "instructions");
  if (instructions !== undefined) instructionTexts.push(instructions);
  const items = readInput(body.input, instructionTexts);
  requireTurnItems(items, "input");
  const request: TurnRequest = { inputParam: "input", items, clientTools: tools.clientTools };
  if (tools.callForms.size > 0) request.callForms = tools.callForms;
  if (tools.omittedHostedTools.length > 0) request.omittedHostedTools = tools.omittedHostedTools;
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
      name: calledName(raw, param),
      arguments: requiredString(raw, "arguments", `${param}.arguments`),
    };
  }
  if (type === "custom_tool_call") {
    // As the model made it: a call of the function that stands for the custom tool, its input as `input`.
    return {
      type: "function_call",
      callId: requiredCallId(raw, param),
      name: calledName(raw, param),
      arguments: JSON.stringify({ input: requiredString(raw, "input", `${param}.input`) }),
    };
  }
  if (type === "local_shell_call") {
    const action = raw.action;
    return {
      type: "function_call",
      callId: requiredCallId(raw, param),
      name: LOCAL_SHELL_CALL_NAME,
      arguments: JSON.stringify(isObjectRecord(action) ? action : {}),
    };
  }
  if (type === "function_call_output" || type === "custom_tool_call_output") {
    return {
      type: "function_call_output",
      callId: requiredCallId(raw, param),
      output: readToolOutput(raw.output, `${param}.output`),
    };
  }
  if (type === "local_shell_call_output") {
    // OpenAI's item names the call by `id`; `call_id` is taken when a client sends it.
    const callId = raw.call_id === undefined || raw.call_id === null ? raw.id : raw.call_id;
    if (typeof callId !== "string" || callId === "") {
      throw invalidRequest(`${param}.id`, `${param}.id must name the local_shell_call it answers.`);
    }
    return { type: "function_call_output", callId, output: readToolOutput(raw.output, `${param}.output`) };
  }
  if (typeof type !== "string") {
    throw invalidRequest(
      `${param}.type`,
      `${param}.type must be a string ("message", "function_call" or "function_call_output"), not ${quoteValue(type)}.`,
    );
  }
  if (DROPPED_ITEM_TYPES.has(type)) return undefined;
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

/** The model's name for the tool a resent call item names: its namespace and name joined as declared. */
function calledName(raw: JsonObject, param: string): string {
  return modelToolName(
    optionalString(raw, "namespace", `${param}.namespace`),
    requiredString(raw, "name", `${param}.name`),
  );
}

function requiredCallId(raw: JsonObject, param: string): string {
  const callId = requiredString(raw, "call_id", `${param}.call_id`);
  if (callId === "") throw invalidRequest(`${param}.call_id`, `${param}.call_id must not be empty.`);
  return callId;
}
