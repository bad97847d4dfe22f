import type { JsonSchema } from "../catalog/index.js";
import { MAX_BATCH_QUERIES, MAX_BATCH_QUERY_GRAPHEMES } from "./limits.js";

/** The search control's name. */
export const TOOL_SEARCH_NAME = "tool_search";
/** The describe control's name. */
export const TOOL_DESCRIBE_NAME = "tool_describe";
/** The call control's name. */
export const TOOL_CALL_NAME = "tool_call";

/** `tool_search`'s constant description (constant, so it never breaks a prompt cache). */
export const TOOL_SEARCH_DESCRIPTION = [
  "Search the catalog of tools whose schemas are not loaded yet.",
  'Write queries as English keywords for the capability you need (e.g. "create calendar event"), whatever language the conversation uses.',
  `Use query for one search, or queries (at most ${MAX_BATCH_QUERIES}, each with its own optional limit) to look for several capabilities at once.`,
  "Each result carries an id and a compact input signature: pass the id to tool_describe for the full schema, or to tool_call to run the tool.",
].join("\n");

/** `tool_describe`'s constant description. */
export const TOOL_DESCRIBE_DESCRIPTION = [
  "Show one tool's full input schema (and its output schema when declared).",
  'Use it when the compact input signature from tool_search is not enough: it is "unknown" (MCP and client tools), it is cut short with "...", or a call failed validation.',
  "Put the tool's exact id (or unique name) in id.",
].join("\n");

/** `tool_call`'s constant description. */
export const TOOL_CALL_DESCRIPTION = [
  "Run a tool found with tool_search.",
  "Put the tool's exact id (or unique name) in id and every parameter of that tool in args, e.g.",
  '{"id": "native:weather:get_forecast", "args": {"city": "Oslo"}}.',
  "The answer holds the tool's id, name and source and the tool's own result.",
].join("\n");

/**
 * `tool_search`'s parameters as declared to the model. Every property has one `type` and is optional (no
 * `type: [..., "null"]` unions, which strict clients and Gemini-style declarations reject); `null` from a
 * model is still read as absent.
 */
export const TOOL_SEARCH_PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    query: { type: "string", description: "English keywords describing the capability you need." },
    limit: {
      type: "integer",
      minimum: 1,
      description: "Most results for query. Omit for the default; large values are capped.",
    },
    queries: {
      type: "array",
      maxItems: MAX_BATCH_QUERIES,
      description:
        "Several searches in one request, answered in order. Set limit on each item, not on the request.",
      items: {
        type: "object",
        properties: {
          query: {
            type: "string",
            minLength: 1,
            maxLength: MAX_BATCH_QUERY_GRAPHEMES,
            description: "English keywords.",
          },
          limit: { type: "integer", minimum: 1, description: "Most results for this query." },
        },
        required: ["query"],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

/** `tool_describe`'s parameters as declared to the model. */
export const TOOL_DESCRIBE_PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    id: {
      type: "string",
      minLength: 1,
      description: "The tool's exact id from tool_search, or its unique name.",
    },
  },
  required: ["id"],
  additionalProperties: false,
};

/** `tool_call`'s parameters as declared to the model. */
export const TOOL_CALL_PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    id: {
      type: "string",
      minLength: 1,
      description: "The tool's exact id from tool_search, or its unique name.",
    },
    args: { type: "object", description: "Every argument of the target tool, by name." },
  },
  required: ["id"],
};
