import type { ProviderTool } from "../../../runtime/providers/index.js";
import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import { MAX_CLIENT_TOOLS, MAX_TOOL_NAME_LENGTH } from "../limits.js";
import { type JsonObject, optionalString, quoteValue } from "./request-fields.js";

const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]+$/u;

/** Parameters of a client tool that declares none: an object without properties. */
const NO_PARAMETERS = { type: "object", properties: {} } as const;

/**
 * Reads the `tools` field of a Responses or Chat Completions request into client function tools.
 * Both the Responses form `{ type: "function", name, … }` and the Chat form
 * `{ type: "function", function: { name, … } }` are accepted; any other tool type is a 400.
 */
export function parseClientTools(value: unknown): ProviderTool[] {
  return parseToolList(value, parseOne, "function tools");
}

/**
 * Reads a `tools` array of any API's tool form: absent or null is none; at most `MAX_CLIENT_TOOLS`, each
 * read by `parseOne` (which may return undefined for a tool it leaves out), names unique (else a 400 naming
 * the field). `kind` names the expected form in messages.
 */
export function parseToolList(
  value: unknown,
  parseOne: (raw: unknown, param: string) => ProviderTool | undefined,
  kind: string,
): ProviderTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidRequest("tools", `tools must be an array of ${kind}.`);
  if (value.length > MAX_CLIENT_TOOLS) {
    throw invalidRequest("tools", `tools may declare at most ${MAX_CLIENT_TOOLS} tools.`);
  }
  const seen = new Set<string>();
  const tools: ProviderTool[] = [];
  for (const [index, raw] of value.entries()) {
    const tool = parseOne(raw, `tools[${index}]`);
    if (tool === undefined) continue;
    if (seen.has(tool.name)) {
      throw invalidRequest(
        `tools[${index}].name`,
        `tools declares "${tool.name}" twice: names must be unique.`,
      );
    }
    seen.add(tool.name);
    tools.push(tool);
  }
  return tools;
}

function parseOne(raw: unknown, param: string): ProviderTool {
  if (!isObjectRecord(raw)) throw invalidRequest(param, `${param} must be an object.`);
  if (raw.type !== "function") {
    const type = raw.type === undefined ? "missing" : quoteValue(raw.type);
    throw invalidRequest(
      `${param}.type`,
      `${param}.type is ${type}: the toolsift gateway accepts only client function tools ({ "type": "function", ... }).`,
      "unsupported_tool_type",
    );
  }
  const nested = raw.function;
  if (nested !== undefined) {
    if (!isObjectRecord(nested))
      throw invalidRequest(`${param}.function`, `${param}.function must be an object.`);
    return readFunction(nested, `${param}.function`);
  }
  return readFunction(raw, param);
}

/**
 * Reads one tool's `name` (OpenAI's rule: 1-64 of `A-Za-z0-9_-`), `description` (default empty) and JSON
 * Schema under `schemaKey` (`parameters`, or Anthropic's `input_schema`; default: an empty object schema).
 */
export function readFunction(
  fields: JsonObject,
  param: string,
  schemaKey: "parameters" | "input_schema" = "parameters",
): ProviderTool {
  const name = optionalString(fields, "name", `${param}.name`);
  if (name === undefined) throw invalidRequest(`${param}.name`, `${param}.name is required.`);
  if (name.length > MAX_TOOL_NAME_LENGTH || !TOOL_NAME_PATTERN.test(name)) {
    throw invalidRequest(
      `${param}.name`,
      `${param}.name must be 1-${MAX_TOOL_NAME_LENGTH} letters, digits, "_" or "-".`,
    );
  }
  const description = optionalString(fields, "description", `${param}.description`) ?? "";
  const parameters = fields[schemaKey];
  if (parameters !== undefined && parameters !== null && !isObjectRecord(parameters)) {
    throw invalidRequest(`${param}.${schemaKey}`, `${param}.${schemaKey} must be a JSON Schema object.`);
  }
  return { name, description, parameters: parameters ?? structuredClone(NO_PARAMETERS) };
}
