import type { ProviderTool } from "../../../runtime/providers/index.js";
import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import { applyHostedToolsSetting, type HostedToolsSetting } from "../hosted-tools.js";
import { parseToolList, readFunction } from "../request/parse-client-tools.js";
import { type JsonObject, optionalString, quoteValue } from "../request/request-fields.js";

/** `type` values of an Anthropic client tool: absent, null or `"custom"`. */
const CLIENT_TOOL_TYPES: ReadonlySet<unknown> = new Set([undefined, null, "custom"]);

/** Type prefix of Anthropic's tool-search tools (`tool_search_tool_regex_…`, `tool_search_tool_bm25_…`). */
const TOOL_SEARCH_TYPE_PREFIX = "tool_search_tool_";

/** The hosted tool type an `mcp_servers` entry is reported as. */
const MCP_SERVER_TYPE = "mcp_server";

/** `tool_choice.type` values: all accepted, none enforced (the agent decides which tools to call). */
const TOOL_CHOICE_TYPES: ReadonlySet<unknown> = new Set(["auto", "any", "tool", "none"]);

/** The `tools` (and `mcp_servers`) of a Messages request: the client tools, and the hosted tool types left out. */
export type MessagesTools = { clientTools: ProviderTool[]; omittedHostedTools: string[] };

/**
 * Reads the `tools` and `mcp_servers` of a Messages request. Client tools `{ name, description,
 * input_schema }` (`type` absent or `"custom"`) become the run's client tools, `defer_loading: true` as
 * `deferLoading` (the tool goes behind Tool Search); `cache_control` and other hints are ignored. Every typed
 * tool (Anthropic's server tools such as `web_search_…`, `bash_…`, `text_editor_…`, `code_execution_…`,
 * `computer_…`, `web_fetch_…`, unknown types) and every `mcp_servers` entry (type `mcp_server`) is a hosted
 * tool toolsift cannot run: left out with its type listed once in `omittedHostedTools`, or a 400 under
 * `setting: "reject"` (`applyHostedToolsSetting`). A tool-search tool (`tool_search_tool_…`) is left out
 * silently and never refused: toolsift's own Tool Search serves it.
 * Names, limits and duplicates follow the OpenAI routes' rules (`parse-client-tools.ts`).
 */
export function parseMessagesTools(body: JsonObject, setting: HostedToolsSetting): MessagesTools {
  const omittedHostedTools: string[] = [];
  const omit = (type: string | undefined) => {
    if (type !== undefined && !omittedHostedTools.includes(type)) omittedHostedTools.push(type);
  };
  const parseOne = (raw: unknown, param: string): ProviderTool | undefined => {
    if (!isObjectRecord(raw)) throw invalidRequest(param, `${param} must be an object.`);
    if (CLIENT_TOOL_TYPES.has(raw.type)) return readClientTool(raw, param);
    omit(hostedToolType(raw, param, setting));
    return undefined;
  };
  const clientTools = parseToolList(body.tools, parseOne, "tools ({ name, description, input_schema })");
  readMcpServers(body.mcp_servers, setting).forEach(omit);
  return { clientTools, omittedHostedTools };
}

function readClientTool(raw: JsonObject, param: string): ProviderTool {
  const tool = readFunction(raw, param, "input_schema");
  const defer = raw.defer_loading;
  if (defer !== undefined && defer !== null && typeof defer !== "boolean") {
    throw invalidRequest(`${param}.defer_loading`, `${param}.defer_loading must be true or false.`);
  }
  if (defer === true) tool.deferLoading = true;
  return tool;
}

/** A typed tool's type when it is a hosted tool (checked against the setting); undefined for a tool-search tool. */
function hostedToolType(raw: JsonObject, param: string, setting: HostedToolsSetting): string | undefined {
  const type = raw.type;
  if (typeof type !== "string" || type === "") {
    throw invalidRequest(
      `${param}.type`,
      `${param}.type must be a string: leave it out (or send "custom") for a client tool.`,
    );
  }
  const name = optionalString(raw, "name", `${param}.name`) ?? type;
  if (type.startsWith(TOOL_SEARCH_TYPE_PREFIX)) return undefined;
  applyHostedToolsSetting({ type, name }, param, setting);
  return type;
}

/** `mcp_servers` (Anthropic's MCP connector): servers the provider would call, so hosted tools here. */
export function readMcpServers(value: unknown, setting: HostedToolsSetting): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidRequest("mcp_servers", "mcp_servers must be an array of servers.");
  return value.map((server, index) => {
    const param = `mcp_servers[${index}]`;
    if (!isObjectRecord(server)) throw invalidRequest(param, `${param} must be an object.`);
    const name =
      optionalString(server, "name", `${param}.name`) ?? optionalString(server, "url", `${param}.url`);
    applyHostedToolsSetting({ type: MCP_SERVER_TYPE, name: name ?? param }, param, setting);
    return MCP_SERVER_TYPE;
  });
}

/**
 * Reads `tool_choice`: `{ type: "auto" | "any" | "none" }` or `{ type: "tool", name }`, with an optional
 * `disable_parallel_tool_use`. Every form is accepted and none is enforced: the agent decides which tools to
 * call (its own, server-side, and the client's). A malformed value is a 400 naming the field.
 */
export function readMessagesToolChoice(body: JsonObject): void {
  const choice = body.tool_choice;
  if (choice === undefined || choice === null) return;
  const forms = '{ "type": "auto" }, { "type": "any" }, { "type": "none" } or { "type": "tool", "name": … }';
  if (!isObjectRecord(choice) || !TOOL_CHOICE_TYPES.has(choice.type)) {
    const type = isObjectRecord(choice) ? `type ${quoteValue(choice.type)}` : quoteValue(choice);
    throw invalidRequest("tool_choice", `tool_choice ${type} is not one of ${forms}.`);
  }
  if (choice.type === "tool" && typeof choice.name !== "string") {
    throw invalidRequest(
      "tool_choice.name",
      'tool_choice.name is required (a string) with { "type": "tool" }.',
    );
  }
  const parallel = choice.disable_parallel_tool_use;
  if (parallel !== undefined && parallel !== null && typeof parallel !== "boolean") {
    throw invalidRequest(
      "tool_choice.disable_parallel_tool_use",
      "tool_choice.disable_parallel_tool_use must be true or false.",
    );
  }
}
