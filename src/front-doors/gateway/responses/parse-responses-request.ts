import * as z from "zod";
import type { ConversationItem } from "../../../runtime/providers/index.js";
import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import { DEFAULT_HOSTED_TOOLS_SETTING, type HostedToolsSetting } from "../hosted-tools.js";
import { modelToolName } from "../request/client-call-form.js";
import { readTextContent, readToolOutput } from "../request/read-text-content.js";
import {
  itemObjects,
  type JsonObject,
  quoteValue,
  requiredString,
  optionalString as stringField,
} from "../request/request-fields.js";
import {
  optionalBoolean,
  optionalPositiveInteger,
  optionalString,
  parseRequestShape,
  readWith,
} from "../request/request-schema.js";
import { joinInstructions, NOTHING_TO_ANSWER, type TurnRequest } from "../request/turn-request.js";
import { parseResponsesTools } from "./parse-responses-tools.js";
import { acceptedFieldDetails, acceptedFields } from "./responses-accepted-fields.js";

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

/** What `input` gives the run: the conversation items and the instruction texts of its system messages. */
type ReadInput = { items: ConversationItem[]; instructionTexts: string[] };

/**
 * A `POST /v1/responses` body for one `gateway.hostedTools` setting; fields are checked in this order (the
 * accepted fields' kinds first), and fields not named are ignored.
 */
function responsesBody(setting: HostedToolsSetting) {
  const kinds = z.object(
    { stream: optionalBoolean, ...acceptedFields },
    { error: "the request body must be a JSON object." },
  );
  return kinds.loose().pipe(
    z.object({
      ...acceptedFieldDetails,
      stream: z.boolean().nullish(),
      tools: readWith((value) => parseResponsesTools(value, setting)),
      instructions: optionalString,
      input: readWith(readInput).refine((input) => input.items.length > 0, {
        error: `{param} ${NOTHING_TO_ANSWER}`,
      }),
      max_output_tokens: optionalPositiveInteger,
      previous_response_id: optionalString,
      model: optionalString,
      store: optionalBoolean,
    }),
  );
}

const responsesBodies: Record<HostedToolsSetting, ReturnType<typeof responsesBody>> = {
  omit: responsesBody("omit"),
  reject: responsesBody("reject"),
};

/** Reads a `POST /v1/responses` body (OpenAI Responses API) into a turn request; bad input is a 400. */
export function parseResponsesRequest(body: unknown, options: ResponsesParseOptions = {}): TurnRequest {
  const read = parseRequestShape(responsesBodies[options.hostedTools ?? DEFAULT_HOSTED_TOOLS_SETTING], body);
  const { items, instructionTexts } = read.input;
  const tools = read.tools;
  const request: TurnRequest = { inputParam: "input", items, clientTools: tools.clientTools };
  if (tools.callForms.size > 0) request.callForms = tools.callForms;
  if (tools.omittedHostedTools.length > 0) request.omittedHostedTools = tools.omittedHostedTools;
  const joined = joinInstructions([
    ...(read.instructions == null ? [] : [read.instructions]),
    ...instructionTexts,
  ]);
  if (joined !== undefined) request.instructions = joined;
  if (read.max_output_tokens != null) request.maxOutputTokens = read.max_output_tokens;
  if (read.previous_response_id != null && read.previous_response_id !== "") {
    request.previousResponseId = read.previous_response_id;
  }
  if (read.model != null) request.model = read.model;
  if (read.stream === true) request.stream = true;
  if (read.store != null) request.store = read.store;
  return request;
}

/** `input`: a string (one user message) or an array of items; `param` is the field's path. */
function readInput(input: unknown, param: string): ReadInput {
  const instructionTexts: string[] = [];
  if (typeof input === "string")
    return { items: [{ type: "message", role: "user", text: input }], instructionTexts };
  if (input === undefined || input === null) {
    throw invalidRequest(param, `${param} is required: a string or an array of input items.`);
  }
  const items: ConversationItem[] = [];
  for (const entry of itemObjects(
    input,
    param,
    `${param} must be a string or an array of input items.`,
    "items",
  )) {
    const item = readItem(entry.raw, entry.param, instructionTexts);
    if (item !== undefined) items.push(item);
  }
  return { items, instructionTexts };
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
    stringField(raw, "namespace", `${param}.namespace`),
    requiredString(raw, "name", `${param}.name`),
  );
}

function requiredCallId(raw: JsonObject, param: string): string {
  const callId = requiredString(raw, "call_id", `${param}.call_id`);
  if (callId === "") throw invalidRequest(`${param}.call_id`, `${param}.call_id must not be empty.`);
  return callId;
}
