import type { ProviderTool } from "../providers/index.js";
import { isObjectRecord } from "../schema/index.js";
import { invalidRequest } from "./gateway-error.js";
import { parseToolList, readFunction } from "./parse-client-tools.js";
import { type JsonObject, quoteValue } from "./request-fields.js";

/** `type` values of an Anthropic client tool: absent, null or `"custom"`. */
const CLIENT_TOOL_TYPES: ReadonlySet<unknown> = new Set([undefined, null, "custom"]);

/**
 * Reads the `tools` of a Messages request: Anthropic client tools `{ name, description, input_schema }`
 * (optionally `type: "custom"`; `cache_control` and other hints are ignored). Anthropic's own server tools
 * (`web_search_…`, `bash_…`, `text_editor_…`, …) are a 400: the agent's tools run inside the gateway.
 * Names, limits and duplicates follow the OpenAI routes' rules (`parse-client-tools.ts`).
 */
export function parseMessagesTools(value: unknown): ProviderTool[] {
  return parseToolList(value, parseOne, "tools ({ name, description, input_schema })");
}

function parseOne(raw: unknown, param: string): ProviderTool {
  if (!isObjectRecord(raw)) throw invalidRequest(param, `${param} must be an object.`);
  if (!CLIENT_TOOL_TYPES.has(raw.type)) {
    throw invalidRequest(
      `${param}.type`,
      `${param}.type is ${quoteValue(raw.type)}: the toolsift gateway accepts only client tools ({ "name", "description", "input_schema" }); Anthropic server tools are not available here, the agent's own tools run inside the gateway.`,
      "unsupported_tool_type",
    );
  }
  return readFunction(raw as JsonObject, param, "input_schema");
}

/**
 * Refuses a `tool_choice` other than `{ type: "auto" }`: the agent decides which tools to call.
 * `disable_parallel_tool_use` inside it is accepted and ignored.
 */
export function refuseMessagesToolChoice(body: JsonObject): void {
  const choice = body.tool_choice;
  if (choice === undefined || choice === null) return;
  if (isObjectRecord(choice) && choice.type === "auto") return;
  throw invalidRequest(
    "tool_choice",
    'tool_choice: only { "type": "auto" } is supported: the agent decides which tools to call. Omit tool_choice.',
    "unsupported_parameter",
  );
}
