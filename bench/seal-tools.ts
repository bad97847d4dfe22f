import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { JsonSchema, ToolDefinition, ToolResult } from "../src/core/catalog/index.js";

/**
 * The Seal-Tools data set, beside the project in `../shared/data/seal-tools/`, or where `SEAL_TOOLS_DIR` says
 * (a git worktree lives one folder deeper than the main checkout).
 */
export const SEAL_TOOLS_DIRECTORY =
  process.env.SEAL_TOOLS_DIR ?? fileURLToPath(new URL("../../shared/data/seal-tools/", import.meta.url));

/** One labelled query: its text and the distinct names of the tools it needs. */
export type SealQuery = { id: string; query: string; gold: string[] };

type SealParameter = { type?: string; description?: string };
type SealTool = {
  api_name: string;
  api_description?: string;
  parameters?: Record<string, SealParameter>;
  required?: string[];
};

const JSON_TYPES: Readonly<Record<string, string>> = {
  str: "string",
  int: "integer",
  float: "number",
  bool: "boolean",
  list: "array",
  dict: "object",
};

/** The 4,076 Seal-Tools tools as plugin tools (owner `seal`) with JSON-Schema parameters. */
export function loadSealTools(): ToolDefinition[] {
  return readJsonLines<SealTool>("tools.jsonl").map(toToolDefinition);
}

/** The labelled queries of a split (`dev` by default); gold tools are the distinct `calling[].api` names. */
export function loadSealQueries(split = "dev"): SealQuery[] {
  type Row = { id: string; query: string; calling: Array<{ api: string }> };
  return readJsonLines<Row>(`${split}.jsonl`).map((row) => ({
    id: row.id,
    query: row.query,
    gold: [...new Set(row.calling.map((call) => call.api))],
  }));
}

function toToolDefinition(tool: SealTool): ToolDefinition {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, parameter] of Object.entries(tool.parameters ?? {})) {
    const type = JSON_TYPES[parameter.type ?? ""] ?? "string";
    properties[name] = { type, ...(parameter.description ? { description: parameter.description } : {}) };
  }
  const result: ToolResult = { content: [{ type: "text", text: `${tool.api_name} done.` }] };
  return {
    name: tool.api_name,
    description: tool.api_description ?? "",
    parameters: { type: "object", properties, required: tool.required ?? [], additionalProperties: false },
    origin: { kind: "plugin", owner: "seal" },
    execute: async () => result,
  };
}

function readJsonLines<T>(file: string): T[] {
  return readFileSync(new URL(file, `file://${SEAL_TOOLS_DIRECTORY}`), "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}
