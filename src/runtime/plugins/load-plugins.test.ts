import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPlugins } from "./load-plugins.js";
import { echoToolsEntry, manifestFor, useLoaderSandbox, writePlugin } from "./plugins.test-support.js";

const sandbox = useLoaderSandbox();
const load = sandbox.load;

const WEATHER_ENTRY = `
export function register(api) {
  api.log.info("units=" + api.config.units);
  api.registerTool({
    name: "weather_now",
    description: "Current weather for a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    origin: { kind: "mcp", owner: "spoofed" },
    catalogMode: "catalog",
    executionMode: "sequential",
    greeting: "hello from",
    async execute(args) {
      return { content: [{ type: "text", text: this.greeting + " weather_now: sunny in " + args.city }] };
    },
  });
  api.on("before_tool_call", (event) =>
    event.toolName === "weather_now" ? { params: { ...event.args, units: api.config.units } } : undefined,
  );
  api.on("before_prompt", () => ({ toolsAllow: ["weather_now", "read"] }));
}
`;

async function writeWeather(dir = join(sandbox.root, "plugins", "weather")): Promise<string> {
  return writePlugin(dir, {
    manifest: manifestFor("weather", {
      name: "Weather",
      version: "2.1.0",
      tools: ["weather_now", "weather_week"],
      configSchema: {
        type: "object",
        properties: { units: { enum: ["c", "f"], default: "c" } },
        additionalProperties: false,
      },
    }),
    files: { "index.js": WEATHER_ENTRY },
  });
}

describe("loadPlugins: a good plugin", () => {
  it("loads tools and both hooks, forcing the origin to the plugin", async () => {
    const dir = await writeWeather();
    const loaded = await load({ paths: ["plugins"] });
    expect(loaded.errors).toEqual([]);
    expect(loaded.plugins).toEqual([
      { id: "weather", name: "Weather", version: "2.1.0", dir, tools: ["weather_now"] },
    ]);
    expect(loaded.tools).toHaveLength(1);
    const tool = loaded.tools[0]!;
    expect(tool.origin).toEqual({ kind: "plugin", owner: "weather" });
    expect(tool).toMatchObject({
      name: "weather_now",
      description: "Current weather for a city.",
      executionMode: "sequential",
    });
    const result = await tool.execute({ city: "Paris" }, {});
    expect(result.content).toEqual([{ type: "text", text: "hello from weather_now: sunny in Paris" }]);
    expect(loaded.hooks.beforeToolCall.map((hook) => hook.pluginId)).toEqual(["weather"]);
    expect(loaded.hooks.beforePrompt.map((hook) => hook.pluginId)).toEqual(["weather"]);
    expect(sandbox.logs).toEqual([{ pluginId: "weather", level: "info", message: "units=c" }]);
  });

  it("hands the validated config, with defaults, to register", async () => {
    await writeWeather();
    await load({ paths: ["plugins"], entries: { weather: { config: { units: "f" } } } });
    expect(sandbox.logs).toEqual([{ pluginId: "weather", level: "info", message: "units=f" }]);
  });

  it("refuses a plugin whose config does not match its configSchema", async () => {
    await writeWeather();
    const loaded = await load({
      paths: ["plugins"],
      entries: { weather: { config: { units: "kelvin", extra: 1 } } },
    });
    expect(loaded.plugins).toEqual([]);
    expect(loaded.tools).toEqual([]);
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toMatchObject({ pluginId: "weather" });
    expect(loaded.errors[0]!.message).toContain("plugins.entries.weather.config.units");
    expect(loaded.errors[0]!.message).toContain('unknown property "extra"');
    expect(sandbox.logs).toEqual([]);
  });

  it("refuses a plugin whose configSchema does not compile", async () => {
    await writePlugin(join(sandbox.root, "p"), {
      manifest: manifestFor("p", { configSchema: { type: "no-such-type" } }),
      files: { "index.js": "export function register() {}" },
    });
    const loaded = await load({ paths: ["p"] });
    expect(loaded.plugins).toEqual([]);
    expect(loaded.errors[0]?.message).toContain('"configSchema"');
  });

  it("loads a hooks-only plugin without a tools list, and the documented register export forms", async () => {
    await writePlugin(join(sandbox.root, "all", "a-named"), {
      manifest: { id: "a-named", name: "A", version: "1" },
      files: { "index.js": 'export function register(api) { api.on("before_prompt", () => undefined); }' },
    });
    await writePlugin(join(sandbox.root, "all", "b-default-fn"), {
      manifest: manifestFor("b-default-fn", { tools: ["b_tool"] }),
      files: {
        "index.js": echoToolsEntry(["b_tool"]).replace("export function register", "export default function"),
      },
    });
    await writePlugin(join(sandbox.root, "all", "c-default-object"), {
      manifest: manifestFor("c-default-object", { tools: ["c_tool"], main: "lib/main.mjs" }),
      esm: false,
      files: {
        "lib/main.mjs": `export default { id: "c", register(api) { api.registerTool({ name: "c_tool", execute: async () => ({ content: [] }) }); } };`,
      },
    });
    const loaded = await load({ paths: ["all"] });
    expect(loaded.errors).toEqual([]);
    expect(loaded.plugins.map((plugin) => [plugin.id, plugin.tools])).toEqual([
      ["a-named", []],
      ["b-default-fn", ["b_tool"]],
      ["c-default-object", ["c_tool"]],
    ]);
    expect(loaded.hooks.beforePrompt).toHaveLength(1);
  });
});

describe("loadPlugins: refused registrations", () => {
  it("refuses a tool the manifest does not declare and discards what the plugin registered before", async () => {
    await writePlugin(join(sandbox.root, "p"), {
      manifest: manifestFor("sneaky", { tools: ["declared_tool"] }),
      files: { "index.js": echoToolsEntry(["declared_tool", "undeclared_tool"]) },
    });
    const loaded = await load({ paths: ["p"] });
    expect(loaded.plugins).toEqual([]);
    expect(loaded.tools).toEqual([]);
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toMatchObject({ pluginId: "sneaky", path: join(sandbox.root, "p") });
    expect(loaded.errors[0]!.message).toContain('"undeclared_tool"');
    expect(loaded.errors[0]!.message).toContain('add "undeclared_tool" to "tools"');
  });

  it("refuses a tool registered twice", async () => {
    await writePlugin(join(sandbox.root, "p"), {
      manifest: manifestFor("twice", { tools: ["t"] }),
      files: { "index.js": echoToolsEntry(["t", "t"]) },
    });
    const loaded = await load({ paths: ["p"] });
    expect(loaded.tools).toEqual([]);
    expect(loaded.errors[0]!.message).toContain('registered the tool "t" twice');
  });

  const misuse: Array<[string, string, string]> = [
    ["an unknown event", 'api.on("after_everything", () => {})', 'unknown event "after_everything"'],
    ["a handler that is not a function", 'api.on("before_prompt", "nope")', "needs a handler function"],
    ["a definition without a name", "api.registerTool({ execute() {} })", 'string "name"'],
    ["a definition without execute", 'api.registerTool({ name: "t" })', "no execute function"],
    ["a definition that is not an object", "api.registerTool(42)", "needs a tool definition object"],
  ];
  it.each(misuse)("refuses %s", async (_, call, expected) => {
    await writePlugin(join(sandbox.root, "p"), {
      manifest: manifestFor("misuse", { tools: ["t"] }),
      files: { "index.js": `export function register(api) { ${call}; }` },
    });
    const loaded = await load({ paths: ["p"] });
    expect(loaded.plugins).toEqual([]);
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]!.message).toContain("register() failed");
    expect(loaded.errors[0]!.message).toContain(expected);
  });

  it("ignores registrations made after register() finished, with a warning", async () => {
    await writePlugin(join(sandbox.root, "p"), {
      manifest: manifestFor("late", { tools: ["t"] }),
      files: {
        "index.js": `let saved;
export function register(api) { saved = api; }
export function registerLater() { saved.registerTool({ name: "t", execute: async () => ({ content: [] }) }); }`,
      },
    });
    const loaded = await load({ paths: ["p"] });
    expect(loaded.plugins.map((plugin) => plugin.id)).toEqual(["late"]);
    const module = (await import(join(sandbox.root, "p", "index.js"))) as { registerLater: () => void };
    module.registerLater();
    expect(loaded.tools).toEqual([]);
    expect(sandbox.logs).toHaveLength(1);
    expect(sandbox.logs[0]).toMatchObject({ pluginId: "late", level: "warn" });
    expect(sandbox.logs[0]!.message).toContain("after register() finished");
  });
});

describe("loadPlugins: paths, order and allow", () => {
  async function writeEcho(dir: string, id: string): Promise<void> {
    await writePlugin(dir, {
      manifest: manifestFor(id, { tools: [`${id}_tool`] }),
      files: { "index.js": echoToolsEntry([`${id}_tool`]) },
    });
  }

  it("loads in paths order, then folder name order", async () => {
    await writeEcho(join(sandbox.root, "first"), "solo");
    await writeEcho(join(sandbox.root, "many", "zeta"), "zeta");
    await writeEcho(join(sandbox.root, "many", "Alpha"), "alpha");
    await writeEcho(join(sandbox.root, "many", "beta"), "beta");
    await writePlugin(join(sandbox.root, "many", "not-a-plugin"), { files: { "readme.txt": "no manifest" } });
    await writeEcho(join(sandbox.root, "many", ".hidden"), "hidden");
    const loaded = await load({ paths: ["many", "first"] });
    expect(loaded.errors).toEqual([]);
    expect(loaded.plugins.map((plugin) => plugin.id)).toEqual(["alpha", "beta", "zeta", "solo"]);
    expect(loaded.tools.map((tool) => tool.name)).toEqual([
      "alpha_tool",
      "beta_tool",
      "zeta_tool",
      "solo_tool",
    ]);
  });

  it("resolves paths against baseDir, accepts a manifest path, and loads a folder listed twice once", async () => {
    await writeEcho(join(sandbox.root, "config", "plugins", "one"), "one");
    const loaded = await loadPlugins({
      baseDir: join(sandbox.root, "config"),
      paths: ["plugins/one", join(sandbox.root, "config", "plugins"), "./plugins/one/toolsift.plugin.json"],
      log: () => {},
    });
    expect(loaded.errors).toEqual([]);
    expect(loaded.plugins.map((plugin) => plugin.id)).toEqual(["one"]);
  });

  it("reports paths that do not exist or are not folders", async () => {
    await writeFile(join(sandbox.root, "file.txt"), "x");
    const loaded = await load({ paths: ["missing", "file.txt", ""] });
    expect(loaded.plugins).toEqual([]);
    expect(loaded.errors.map((error) => error.message)).toEqual([
      expect.stringContaining('"missing" (plugins.load.paths'),
      expect.stringContaining("it is a file"),
      expect.stringContaining("non-empty path strings"),
    ]);
    expect(loaded.errors[0]!.message).toContain("does not exist");
  });

  it("loads only allowed ids and lists the others as skipped without running them", async () => {
    await writeEcho(join(sandbox.root, "all", "a"), "a");
    await writePlugin(join(sandbox.root, "all", "b"), {
      manifest: manifestFor("b"),
      files: { "index.js": "globalThis.__toolsiftRanB = true; export function register() {}" },
    });
    await writeEcho(join(sandbox.root, "all", "c"), "c");
    const loaded = await load({ paths: ["all"], allow: ["c", "a", "ghost"] });
    expect(loaded.plugins.map((plugin) => plugin.id)).toEqual(["a", "c"]);
    expect(loaded.skipped).toEqual([
      { id: "b", dir: join(sandbox.root, "all", "b"), reason: '"b" is not in plugins.allow' },
    ]);
    expect((globalThis as { __toolsiftRanB?: boolean }).__toolsiftRanB).toBeUndefined();
    expect(loaded.errors).toEqual([
      {
        pluginId: "ghost",
        path: "plugins.allow",
        message: expect.stringContaining('plugins.allow names "ghost"'),
      },
    ]);
  });

  it("loads everything when allow is empty", async () => {
    await writeEcho(join(sandbox.root, "all", "a"), "a");
    await writeEcho(join(sandbox.root, "all", "b"), "b");
    const loaded = await load({ paths: ["all"], allow: [] });
    expect(loaded.plugins.map((plugin) => plugin.id)).toEqual(["a", "b"]);
    expect(loaded.skipped).toEqual([]);
  });

  it("never throws on nonsense options", async () => {
    const loaded = await loadPlugins({
      paths: "nope" as unknown as string[],
      baseDir: sandbox.root,
      allow: 5 as unknown as string[],
    });
    expect(loaded).toEqual({
      plugins: [],
      tools: [],
      hooks: { beforeToolCall: [], beforePrompt: [] },
      errors: [],
      skipped: [],
    });
  });
});
