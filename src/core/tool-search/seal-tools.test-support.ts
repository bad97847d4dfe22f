import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ToolDefinition, ToolOrigin } from "../catalog/index.js";

/** The Seal-Tools data set beside the project (`../shared/data/seal-tools/`). */
const SEAL_TOOLS = fileURLToPath(new URL("../../../../shared/data/seal-tools/", import.meta.url));

/** True when the data set is there (tests on it are skipped otherwise). */
export const sealToolsAvailable = existsSync(`${SEAL_TOOLS}tools.jsonl`);

function jsonLines<T>(file: string): T[] {
  return readFileSync(`${SEAL_TOOLS}${file}`, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

/** The 4,076 tools by name and description (no schemas), each answering nothing; `origin` when given. */
export function readSealTools(origin?: ToolOrigin): ToolDefinition[] {
  return jsonLines<{ api_name: string; api_description: string }>("tools.jsonl").map((row) => ({
    name: row.api_name,
    description: row.api_description,
    ...(origin ? { origin } : {}),
    execute: async () => ({ content: [] }),
  }));
}

/** The first `count` dev queries' texts. */
export function readSealDevQueries(count: number): string[] {
  return jsonLines<{ query: string }>("dev.jsonl")
    .slice(0, count)
    .map((row) => row.query);
}
