import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadSealTools } from "./seal-tools.js";

/** Id of the benchmark plugin that registers the Seal-Tools catalog. */
export const SEAL_PLUGIN_ID = "seal-tools";

/**
 * Writes a plugin to `dir` that registers Seal-Tools' 4,076 tools (names, descriptions and JSON-Schema
 * parameters from the data set), each answering `ok`: a real plugin-sized catalog for the gateway benches.
 * Returns the directory and how many tools it registers.
 */
export async function writeSealPlugin(dir: string): Promise<{ dir: string; tools: number }> {
  const tools = loadSealTools().map((tool) => ({
    name: tool.name,
    description: tool.description ?? "",
    parameters: tool.parameters ?? { type: "object", properties: {} },
  }));
  await mkdir(dir, { recursive: true });
  const manifest = {
    id: SEAL_PLUGIN_ID,
    name: "Seal-Tools catalog (benchmark)",
    version: "1.0.0",
    main: "index.js",
    tools: tools.map((tool) => tool.name),
  };
  await writeFile(join(dir, "toolsift.plugin.json"), `${JSON.stringify(manifest)}\n`);
  await writeFile(join(dir, "tools.json"), JSON.stringify(tools));
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  const source = `// Written by the toolsift benchmarks.
import { readFileSync } from "node:fs";
const tools = JSON.parse(readFileSync(new URL("./tools.json", import.meta.url), "utf8"));
const ok = { content: [{ type: "text", text: "ok" }] };
export function register(api) {
  for (const tool of tools) api.registerTool({ ...tool, execute: async () => ok });
}
`;
  await writeFile(join(dir, "index.js"), source);
  return { dir, tools: tools.length };
}
