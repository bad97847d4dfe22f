import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MAX_PLUGIN_TOOLS } from "../src/runtime/plugins/index.js";
import { loadSealTools } from "./seal-tools.js";

/** Id prefix of the benchmark plugins that register the Seal-Tools catalog. */
export const SEAL_PLUGIN_ID = "seal-tools";

/**
 * Writes plugins under `root` that together register Seal-Tools' 4,076 tools (names, descriptions and
 * JSON-Schema parameters from the data set), each answering `ok`: a real catalog of that size for the gateway
 * benches. A manifest lists at most MAX_PLUGIN_TOOLS tools, so the catalog is split into as many plugins as
 * that takes (`seal-tools-1` …). Returns their directories and how many tools they register in all.
 */
export async function writeSealPlugins(root: string): Promise<{ dirs: string[]; tools: number }> {
  const tools = loadSealTools().map((tool) => ({
    name: tool.name,
    description: tool.description ?? "",
    parameters: tool.parameters ?? { type: "object", properties: {} },
  }));
  const dirs: string[] = [];
  for (let start = 0; start < tools.length; start += MAX_PLUGIN_TOOLS) {
    const part = tools.slice(start, start + MAX_PLUGIN_TOOLS);
    const id = `${SEAL_PLUGIN_ID}-${dirs.length + 1}`;
    const dir = join(root, id);
    await mkdir(dir, { recursive: true });
    const manifest = {
      id,
      name: `Seal-Tools catalog part ${dirs.length + 1} (benchmark)`,
      version: "1.0.0",
      main: "index.js",
      tools: part.map((tool) => tool.name),
    };
    await writeFile(join(dir, "toolsift.plugin.json"), `${JSON.stringify(manifest)}\n`);
    await writeFile(join(dir, "tools.json"), JSON.stringify(part));
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
    dirs.push(dir);
  }
  return { dirs, tools: tools.length };
}
