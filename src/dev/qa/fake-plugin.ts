import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Id of the QA scenario's fake plugin. */
export const FAKE_PLUGIN_ID = "fake-plugin";
/** How many tools the fake plugin registers. */
export const FAKE_PLUGIN_TOOL_COUNT = 36;

/** `fake_plugin_tool_01` … `fake_plugin_tool_36`. */
export function fakePluginToolName(index: number): string {
  return `fake_plugin_tool_${String(index).padStart(2, "0")}`;
}

/** The fake tools' deliberately long three-sentence description (shared by the plugin and the MCP lane). */
export function fakeToolDescription(number: number): string {
  return (
    `Fake plugin tool number ${number} records a QA marker in the fake plugin's ledger and returns it. ` +
    "It exists only to make the catalog large enough that sending every schema costs real request bytes. " +
    "Call it with a marker string when the QA scenario names it as the target."
  );
}

/**
 * Writes the fake plugin to `dir`: 36 tools, each with a deliberately long three-sentence description and a
 * strict schema (`{ marker: string }`, required, no extra properties), each returning
 * `FAKE_PLUGIN_OK <name> <input>` with `details: { status: "ok", tool, input }`.
 */
export async function writeFakePlugin(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const names = Array.from({ length: FAKE_PLUGIN_TOOL_COUNT }, (_, index) => fakePluginToolName(index + 1));
  const manifest = {
    id: FAKE_PLUGIN_ID,
    name: "Fake QA plugin",
    version: "1.0.0",
    main: "index.js",
    tools: names,
  };
  await writeFile(join(dir, "toolsift.plugin.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const source = `// Written by the toolsift QA scenario.
const names = ${JSON.stringify(names)};
const descriptions = ${JSON.stringify(names.map((_, index) => fakeToolDescription(index + 1)))};
export function register(api) {
  for (const [index, name] of names.entries()) {
    api.registerTool({
      name,
      description: descriptions[index],
      parameters: {
        type: "object",
        properties: { marker: { type: "string", description: "Any marker text to echo back." } },
        required: ["marker"],
        additionalProperties: false,
      },
      execute: async (args) => {
        const input = JSON.stringify(args);
        return {
          content: [{ type: "text", text: "FAKE_PLUGIN_OK " + name + " " + input }],
          details: { status: "ok", tool: name, input: args },
        };
      },
    });
  }
}
`;
  await writeFile(join(dir, "index.js"), source);
  return dir;
}
