import type { ClientToolDeclaration } from "../../../runtime/runner/index.js";
import { isObjectRecord } from "../../../shared/schema/index.js";
import { invalidRequest } from "../gateway-error.js";
import type { HostedToolsSetting } from "../hosted-tools.js";
import { MAX_CLIENT_TOOLS } from "../limits.js";
import { type ClientCallForm, CUSTOM_TOOL_INPUT, modelToolName } from "../request/client-call-form.js";
import { readFunction } from "../request/parse-client-tools.js";
import { type JsonObject, optionalString, quoteValue } from "../request/request-fields.js";

/** The `tools` of a Responses request, read. */
export type ResponsesTools = {
  /** Client tools as the model sees them (namespaced functions under their joined names), in order. */
  clientTools: ClientToolDeclaration[];
  /** How a call of each renamed or custom tool goes back to the client, by the model's name for it. */
  callForms: Map<string, ClientCallForm>;
  /** Hosted tool types toolsift cannot run, left out of the model's request: unique, in declared order. */
  omittedHostedTools: string[];
};

/** The tool type toolsift serves itself: its own Tool Search answers a client's `tool_search`. */
const TOOL_SEARCH_TYPE = "tool_search";

/** What a tool type can look like (`web_search_preview_2025_03_11`): anything else is no type but a bad value. */
const TOOL_TYPE_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/u;

/** Longest namespace name accepted. */
const MAX_NAMESPACE_NAME_LENGTH = 128;

/**
 * Reads the `tools` of a `POST /v1/responses` body: `function` (the Chat form `{ function: {…} }` too;
 * `strict` and `defer_loading` accepted), `custom` (freeform: the model gets a function taking one string
 * `input`), `namespace` (its functions and custom tools become client tools owned by the namespace, named
 * `<namespace>__<name>` for the model), `tool_search` (served by toolsift's own Tool Search) and every other
 * type as a hosted tool toolsift cannot run: left out and listed (`"omit"`), or a 400 (`"reject"`). Model
 * names must be unique; at most `MAX_CLIENT_TOOLS` entries in `tools`, and as many client tools, namespaced
 * ones counted one by one.
 */
export function parseResponsesTools(
  value: unknown,
  hostedTools: HostedToolsSetting = "omit",
): ResponsesTools {
  const read: ResponsesTools = { clientTools: [], callForms: new Map(), omittedHostedTools: [] };
  if (value === undefined || value === null) return read;
  if (!Array.isArray(value)) throw invalidRequest("tools", "tools must be an array of tools.");
  if (value.length > MAX_CLIENT_TOOLS) {
    throw invalidRequest("tools", `tools may declare at most ${MAX_CLIENT_TOOLS} tools.`);
  }
  const seen = new Set<string>();
  const add = (tool: ClientToolDeclaration, form: ClientCallForm | undefined, param: string) => {
    if (seen.has(tool.name)) {
      throw invalidRequest(`${param}.name`, `tools declares "${tool.name}" twice: names must be unique.`);
    }
    if (read.clientTools.length >= MAX_CLIENT_TOOLS) {
      throw invalidRequest("tools", `tools may declare at most ${MAX_CLIENT_TOOLS} tools.`);
    }
    seen.add(tool.name);
    read.clientTools.push(tool);
    if (form !== undefined) read.callForms.set(tool.name, form);
  };
  for (const [index, raw] of value.entries()) {
    const param = `tools[${index}]`;
    if (!isObjectRecord(raw)) throw invalidRequest(param, `${param} must be an object.`);
    const type = raw.type;
    if (typeof type !== "string") {
      throw invalidRequest(
        `${param}.type`,
        `${param}.type is ${type === undefined ? "missing" : quoteValue(type)}: send a tool type ("function", "custom", "namespace" or a hosted tool type).`,
        "unsupported_tool_type",
      );
    }
    if (type === "function" || type === "custom") {
      const { tool, form } = readMember(raw, param, undefined);
      add(tool, form, param);
    } else if (type === "namespace") {
      for (const member of readNamespace(raw, param)) add(member.tool, member.form, member.param);
    } else if (type !== TOOL_SEARCH_TYPE) {
      if (!TOOL_TYPE_PATTERN.test(type)) {
        throw invalidRequest(
          `${param}.type`,
          `${param}.type ${quoteValue(type)} is not a tool type: send "function", "custom", "namespace" or a hosted tool type (1-64 letters, digits, "_", "-" or ".").`,
          "unsupported_tool_type",
        );
      }
      if (hostedTools === "reject") {
        throw invalidRequest(
          `${param}.type`,
          `${param}.type ${quoteValue(type)} is a hosted tool toolsift cannot run: remove it, or set gateway.hostedTools to "omit" to leave such tools out of the model's request (they are reported).`,
          "unsupported_tool_type",
        );
      }
      if (!read.omittedHostedTools.includes(type)) read.omittedHostedTools.push(type);
    }
  }
  return read;
}

type Member = { tool: ClientToolDeclaration; form: ClientCallForm | undefined; param: string };

function readNamespace(raw: JsonObject, param: string): Member[] {
  const namespace = optionalString(raw, "name", `${param}.name`);
  if (namespace === undefined || namespace === "" || namespace.length > MAX_NAMESPACE_NAME_LENGTH) {
    throw invalidRequest(
      `${param}.name`,
      `${param}.name is required: the namespace's name, 1-${MAX_NAMESPACE_NAME_LENGTH} characters.`,
    );
  }
  const description = optionalString(raw, "description", `${param}.description`) ?? "";
  const deferAll = readDeferLoading(raw, param);
  const tools = raw.tools;
  if (!Array.isArray(tools)) {
    throw invalidRequest(`${param}.tools`, `${param}.tools must be an array of function or custom tools.`);
  }
  return tools.map((member, index) => {
    const memberParam = `${param}.tools[${index}]`;
    if (!isObjectRecord(member)) throw invalidRequest(memberParam, `${memberParam} must be an object.`);
    if (member.type !== "function" && member.type !== "custom") {
      throw invalidRequest(
        `${memberParam}.type`,
        `${memberParam}.type is ${member.type === undefined ? "missing" : quoteValue(member.type)}: a namespace holds "function" and "custom" tools only.`,
        "unsupported_tool_type",
      );
    }
    const { tool, form } = readMember(member, memberParam, { name: namespace, description });
    if (deferAll) tool.deferLoading = true;
    return { tool, form, param: memberParam };
  });
}

/** One function or custom tool, at the top level or inside a namespace. */
function readMember(
  raw: JsonObject,
  param: string,
  namespace: { name: string; description: string } | undefined,
): { tool: ClientToolDeclaration; form: ClientCallForm | undefined } {
  const custom = raw.type === "custom";
  const nested = raw.function;
  if (!custom && nested !== undefined && namespace === undefined) {
    // The Chat Completions form, accepted here too: no Responses extras to read.
    if (!isObjectRecord(nested))
      throw invalidRequest(`${param}.function`, `${param}.function must be an object.`);
    return { tool: readFunction(nested, `${param}.function`), form: undefined };
  }
  const own = custom ? readCustom(raw, param) : readFunction(raw, param);
  if (raw.strict !== undefined && raw.strict !== null && typeof raw.strict !== "boolean") {
    throw invalidRequest(`${param}.strict`, `${param}.strict must be true or false.`);
  }
  const tool: ClientToolDeclaration = {
    ...own,
    name: modelToolName(namespace?.name, own.name),
  };
  if (namespace !== undefined) {
    tool.owner = namespace.name;
    if (namespace.description !== "") {
      tool.description = `${own.description}${own.description === "" ? "" : "\n\n"}(In ${namespace.name}: ${namespace.description})`;
    }
  }
  if (readDeferLoading(raw, param)) tool.deferLoading = true;
  const renamed = namespace !== undefined;
  const form: ClientCallForm | undefined =
    custom || renamed
      ? {
          kind: custom ? "custom" : "function",
          name: own.name,
          ...(namespace === undefined ? {} : { namespace: namespace.name }),
        }
      : undefined;
  return { tool, form };
}

/** A custom tool: freeform text input, offered to the model as a function of one string. */
function readCustom(raw: JsonObject, param: string): ClientToolDeclaration {
  const { name, description } = readFunction({ name: raw.name, description: raw.description }, param);
  const format = raw.format;
  if (format !== undefined && format !== null && !isObjectRecord(format)) {
    throw invalidRequest(`${param}.format`, `${param}.format must be an object.`);
  }
  const grammar =
    isObjectRecord(format) && format.type === "grammar" && typeof format.definition === "string"
      ? `\n\nThe input must follow this ${typeof format.syntax === "string" ? `${format.syntax} ` : ""}grammar:\n${format.definition}`
      : "";
  return {
    name,
    description: `${description}${grammar}`,
    parameters: {
      type: "object",
      properties: {
        [CUSTOM_TOOL_INPUT]: {
          type: "string",
          description: "The tool's whole input as freeform text, passed to it as is.",
        },
      },
      required: [CUSTOM_TOOL_INPUT],
      additionalProperties: false,
    },
  };
}

function readDeferLoading(raw: JsonObject, param: string): boolean {
  const defer = raw.defer_loading;
  if (defer === undefined || defer === null) return false;
  if (typeof defer !== "boolean") {
    throw invalidRequest(`${param}.defer_loading`, `${param}.defer_loading must be true or false.`);
  }
  return defer;
}
