import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BuiltCliOutcome, runNode } from "../../front-doors/cli/built-cli.test-support.js";
import { createPluginSandbox, manifestFor, writePlugin } from "./plugins.test-support.js";

const projectRoot = fileURLToPath(new URL("../../../", import.meta.url));
const pluginsIndex = pathToFileURL(join(projectRoot, "src/runtime/plugins/index.ts")).href;
const beforeToolCallHooks = pathToFileURL(join(projectRoot, "src/runtime/plugins/run-plugin-hooks.ts")).href;

/** Runs a TypeScript script in a real Node process (through tsx), from the project root. */
function runScript(script: string): Promise<BuiltCliOutcome> {
  return runNode(["--import", "tsx", script], { cwd: projectRoot });
}

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ root, cleanup } = await createPluginSandbox());
});

afterEach(async () => {
  await cleanup();
});

describe("loadPlugins in a real Node process", () => {
  it("loads real ES modules, reports broken ones, and survives late misuse", async () => {
    await writePlugin(join(root, "plugins", "a-weather"), {
      manifest: manifestFor("weather", { tools: ["weather_now"] }),
      esm: false,
      files: {
        "index.js": `export function register(api) {
  api.registerTool({
    name: "weather_now",
    parameters: { type: "object", properties: { city: { type: "string" } } },
    async execute(args) { return { content: [{ type: "text", text: "sunny in " + args.city }] }; },
  });
  api.on("before_tool_call", (event) => ({ params: { ...event.args, city: String(event.args.city).toUpperCase() } }));
  setTimeout(() => api.registerTool({ name: "weather_now", execute: async () => ({ content: [] }) }), 10);
}
`,
      },
    });
    await writePlugin(join(root, "plugins", "b-import-throws"), {
      manifest: manifestFor("import-throws"),
      files: { "index.js": 'throw new Error("no database configured");' },
    });
    await writePlugin(join(root, "plugins", "c-commonjs"), {
      manifest: manifestFor("commonjs", { main: "index.cjs", tools: ["cjs_tool"] }),
      esm: false,
      files: {
        "index.cjs": `module.exports = { register(api) { api.registerTool({ name: "cjs_tool", execute: async () => ({ content: [{ type: "text", text: "cjs ok" }] }) }); } };`,
      },
    });
    const script = join(root, "run.mts");
    await writeFile(
      script,
      `import { loadPlugins } from ${JSON.stringify(pluginsIndex)};
import { runBeforeToolCallHooks } from ${JSON.stringify(beforeToolCallHooks)};
const warnings: string[] = [];
const loaded = await loadPlugins({ paths: ["plugins"], baseDir: ${JSON.stringify(root)}, log: (entry) => warnings.push(entry.level + ":" + entry.message) });
const hook = await runBeforeToolCallHooks(loaded.hooks.beforeToolCall, {
  toolName: "weather_now", toolId: "native:weather:weather_now", source: "native", args: { city: "paris" }, agentId: "main", sessionKey: "s",
});
const args = hook && "params" in hook ? hook.params : undefined;
const outputs = [];
for (const tool of loaded.tools) outputs.push((await tool.execute(args, {})).content);
await new Promise((resolve) => setTimeout(resolve, 50));
console.log(JSON.stringify({
  plugins: loaded.plugins.map((plugin) => plugin.id),
  origins: loaded.tools.map((tool) => tool.origin),
  errors: loaded.errors.map((error) => error.pluginId + ": " + error.message),
  hook, outputs, warnings,
}));
`,
    );
    const outcome = await runScript(script);
    expect(outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout) as {
      plugins: string[];
      origins: unknown[];
      errors: string[];
      hook: unknown;
      outputs: unknown[];
      warnings: string[];
    };
    expect(report.plugins).toEqual(["weather", "commonjs"]);
    expect(report.origins).toEqual([
      { kind: "plugin", owner: "weather" },
      { kind: "plugin", owner: "commonjs" },
    ]);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]).toContain("import-throws: ");
    expect(report.errors[0]).toContain("no database configured");
    expect(report.hook).toEqual({ params: { city: "PARIS" } });
    expect(report.outputs).toEqual([
      [{ type: "text", text: "sunny in PARIS" }],
      [{ type: "text", text: "cjs ok" }],
    ]);
    expect(report.warnings).toEqual([
      expect.stringContaining("warn:registerTool called after register() finished"),
    ]);
  });
});
