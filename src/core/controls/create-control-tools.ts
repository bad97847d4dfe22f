import { safeRead } from "../../shared/schema/index.js";
import type { JsonSchema, ToolDefinition, ToolResult } from "../catalog/index.js";
import { toCallResult } from "./call-result.js";
import {
  TOOL_CALL_DESCRIPTION,
  TOOL_CALL_NAME,
  TOOL_CALL_PARAMETERS,
  TOOL_DESCRIBE_DESCRIPTION,
  TOOL_DESCRIBE_NAME,
  TOOL_DESCRIBE_PARAMETERS,
  TOOL_SEARCH_DESCRIPTION,
  TOOL_SEARCH_NAME,
  TOOL_SEARCH_PARAMETERS,
} from "./control-definitions.js";
import { describeEntry, describeText } from "./describe-entry.js";
import { modelText } from "./model-data.js";
import { resolveTarget } from "./resolve-target.js";
import { runToolCall } from "./run-tool-call.js";
import { runToolSearch } from "./run-tool-search.js";
import { boundedCandidate } from "./to-candidate.js";
import { toErrorResult } from "./to-error-result.js";
import type { BatchSearchResponse, ControlRuntime, NoMatchHelp } from "./types.js";

/** The controls' parameter schemas as JSON, made once: parsing it back is a cheaper copy than structuredClone. */
const SCHEMA_TEXTS = {
  search: JSON.stringify(TOOL_SEARCH_PARAMETERS),
  describe: JSON.stringify(TOOL_DESCRIBE_PARAMETERS),
  call: JSON.stringify(TOOL_CALL_PARAMETERS),
} as const;

/**
 * The three control tools, in the order tool_search, tool_describe, tool_call, as ordinary ToolDefinitions
 * (origin core, catalogMode "direct-only"). Their `execute` never throws or rejects: every failure comes
 * back as an error result (`toErrorResult`). Each call gets fresh copies of the parameter schemas.
 */
export function createControlTools(runtime: ControlRuntime): ToolDefinition[] {
  const control = (
    name: string,
    label: string,
    description: string,
    parametersText: string,
    run: (args: unknown, context: unknown) => ToolResult | Promise<ToolResult>,
  ): ToolDefinition => ({
    name,
    label,
    description,
    parameters: JSON.parse(parametersText) as JsonSchema,
    origin: { kind: "core", owner: "core" },
    catalogMode: "direct-only",
    execute: async (args, context) => {
      try {
        return await run(args, context);
      } catch (error) {
        return toErrorResult(error);
      }
    },
  });

  return [
    control(TOOL_SEARCH_NAME, "Tool Search", TOOL_SEARCH_DESCRIPTION, SCHEMA_TEXTS.search, (args) => {
      const details = runToolSearch(runtime, args);
      const forModel = !Array.isArray(details)
        ? details
        : details.noMatch
          ? noMatchText(safeRead(args, "query"), details.noMatch)
          : details.map(boundedCandidate);
      return { content: [{ type: "text", text: modelText(forModel) }], details };
    }),
    control(TOOL_DESCRIBE_NAME, "Tool Describe", TOOL_DESCRIBE_DESCRIPTION, SCHEMA_TEXTS.describe, (args) => {
      runtime.snapshot();
      const description = describeEntry(resolveTarget(runtime, describeSelector(args)));
      runtime.count("describe");
      return { content: [{ type: "text", text: describeText(description) }], details: description };
    }),
    control(TOOL_CALL_NAME, "Tool Call", TOOL_CALL_DESCRIPTION, SCHEMA_TEXTS.call, async (args, context) => {
      runtime.snapshot();
      const envelope = await runToolCall(runtime, args, context as Parameters<typeof runToolCall>[2]);
      const entry = runtime.snapshot().get(envelope.tool.id);
      return toCallResult(envelope, {
        networkSourced: entry?.resultSource !== "local",
        detailsMirrorContent: entry?.source === "mcp",
      });
    }),
  ];
}

/**
 * The model text of a single query that matched nothing: shaped like a one-query batch answer, so the model
 * (and any reader of batch answers) sees one form for "this query found nothing, and why".
 */
function noMatchText(query: unknown, help: NoMatchHelp): BatchSearchResponse {
  const { hint, ...noMatch } = help;
  const text = typeof query === "string" ? query.trim() : "";
  return { results: [{ query: text, candidates: [], noMatch }], hint };
}

/**
 * `tool_describe`'s selector: `id`, or for weak models `toolId` / `name` when `id` is missing, or the same
 * keys inside an `input` (or `args`) wrapper when the top level has none, as `tool_call` accepts.
 */
function describeSelector(args: unknown): unknown {
  const direct = selectorIn(args);
  if (direct !== undefined) return direct;
  for (const wrapper of ["input", "args"]) {
    const inner = safeRead(args, wrapper);
    if (typeof inner !== "object" || inner === null) continue;
    const wrapped = selectorIn(inner);
    if (wrapped !== undefined) return wrapped;
  }
  return undefined;
}

function selectorIn(args: unknown): unknown {
  for (const key of ["id", "toolId", "name"]) {
    const value = safeRead(args, key);
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}
