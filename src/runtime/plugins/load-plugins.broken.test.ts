import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { echoToolsEntry, manifestFor, useLoaderSandbox, writePlugin } from "./plugins.test-support.js";

const sandbox = useLoaderSandbox();
const load = sandbox.load;

describe("loadPlugins: broken plugins are reported and skipped", () => {
  const manifests: Array<[string, string | Record<string, unknown>, string]> = [
    ["not JSON", "{ id: 'x', ", "is not valid JSON"],
    ["a JSON array", "[]", "must be object"],
    ["no id", { name: "x", version: "1" }, "id: is required"],
    ["no name", { id: "x", version: "1" }, "name: is required"],
    ["no version", { id: "x", name: "x" }, "version: is required"],
    ["an id with a colon", { id: "a:b", name: "x", version: "1" }, "id: must match pattern"],
    ["a reserved id", { id: "core", name: "x", version: "1" }, "reserved"],
    ["tools not a list", { id: "x", name: "x", version: "1", tools: "t" }, "tools: must be array"],
    [
      "a tool name that is not a string",
      { id: "x", name: "x", version: "1", tools: [1] },
      "tools[0]: must be string",
    ],
    ["main not a string", { id: "x", name: "x", version: "1", main: 5 }, "main: must be string"],
  ];
  it.each(manifests)("a manifest that is %s", async (_, manifest, expected) => {
    await writePlugin(join(sandbox.root, "p"), {
      manifest,
      files: { "index.js": "export function register() {}" },
    });
    const loaded = await load({ paths: ["p"] });
    expect(loaded.plugins).toEqual([]);
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]!.path).toBe(join(sandbox.root, "p", "toolsift.plugin.json"));
    expect(loaded.errors[0]!.message).toContain(expected);
  });

  const entries: Array<[string, Record<string, string>, Record<string, unknown>, string]> = [
    ["a missing entry", {}, {}, "does not exist"],
    ["an import that throws", { "index.js": 'throw new Error("boom at import");' }, {}, "importing"],
    ["a module with a syntax error", { "index.js": "export function register( {" }, {}, "importing"],
    [
      "no register export",
      { "index.js": "export const nothing = 1;" },
      {},
      "does not export a register(api) function",
    ],
    [
      "a register that throws",
      { "index.js": 'export function register() { throw new Error("boom in register"); }' },
      {},
      "register() failed: boom in register",
    ],
    [
      "a register that rejects",
      { "index.js": 'export async function register() { throw new Error("async boom"); }' },
      {},
      "register() failed: async boom",
    ],
    [
      "a register that throws a non-Error",
      { "index.js": "export function register() { throw 42; }" },
      {},
      "register() failed: 42",
    ],
    ["an entry that is a folder", { "lib/x.js": "" }, { main: "lib" }, "is not a file"],
  ];
  it.each(entries)("%s", async (_, files, overrides, expected) => {
    await writePlugin(join(sandbox.root, "p"), { manifest: manifestFor("broken", overrides), files });
    const loaded = await load({ paths: ["p"] });
    expect(loaded.plugins).toEqual([]);
    expect(loaded.tools).toEqual([]);
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toMatchObject({ pluginId: "broken", path: join(sandbox.root, "p") });
    expect(loaded.errors[0]!.message).toContain(expected);
    expect(loaded.errors[0]!.message).toContain('Plugin "broken"');
  });

  it("reports a register that never finishes, and discards what it registered", async () => {
    await writePlugin(join(sandbox.root, "p"), {
      manifest: manifestFor("slow", { tools: ["t"] }),
      files: {
        "index.js": `${echoToolsEntry(["t"]).replace("export function register(api) {", "function registerTools(api) {")}
export function register(api) { registerTools(api); return new Promise(() => {}); }`,
      },
    });
    const loaded = await load({ paths: ["p"], registerTimeoutMs: 100 });
    expect(loaded.plugins).toEqual([]);
    expect(loaded.tools).toEqual([]);
    expect(loaded.errors[0]!.message).toContain("did not finish loading within 100 ms");
  });

  it("keeps loading the other plugins after a broken one", async () => {
    await writePlugin(join(sandbox.root, "all", "a"), { manifest: "nope", files: {} });
    await writePlugin(join(sandbox.root, "all", "b"), {
      manifest: manifestFor("b"),
      files: { "index.js": 'export function register() { throw new Error("no"); }' },
    });
    await writePlugin(join(sandbox.root, "all", "c"), {
      manifest: manifestFor("c", { tools: ["c_tool"] }),
      files: { "index.js": echoToolsEntry(["c_tool"]) },
    });
    const loaded = await load({ paths: ["all"] });
    expect(loaded.plugins.map((plugin) => plugin.id)).toEqual(["c"]);
    expect(loaded.errors).toHaveLength(2);
  });

  it("refuses a second plugin with an id already loaded", async () => {
    await writePlugin(join(sandbox.root, "one"), {
      manifest: manifestFor("same"),
      files: { "index.js": "export function register() {}" },
    });
    await writePlugin(join(sandbox.root, "two"), {
      manifest: manifestFor("same"),
      files: { "index.js": "export function register() {}" },
    });
    const loaded = await load({ paths: ["one", "two"] });
    expect(loaded.plugins.map((plugin) => plugin.dir)).toEqual([join(sandbox.root, "one")]);
    expect(loaded.errors[0]).toMatchObject({ pluginId: "same", path: join(sandbox.root, "two") });
    expect(loaded.errors[0]!.message).toContain(`already used by ${join(sandbox.root, "one")}`);
  });
});

describe("loadPlugins: the entry stays inside the plugin folder", () => {
  it.each([
    ["a parent path", "../outside.js", "leaves the plugin folder"],
    ["a deeper parent path", "lib/../../outside.js", "leaves the plugin folder"],
    ["an absolute path", "/tmp/outside.js", "is an absolute path"],
    ["the folder itself", ".", "leaves the plugin folder"],
    ["a NUL character", "index.js\u0000", "NUL"],
  ])("refuses %s as main", async (_, main, expected) => {
    await writeFile(
      join(sandbox.root, "outside.js"),
      "globalThis.__toolsiftEscaped = true; export function register() {}",
    );
    await writePlugin(join(sandbox.root, "p"), {
      manifest: manifestFor("escape", { main }),
      files: { "index.js": "" },
    });
    const loaded = await load({ paths: ["p"] });
    expect(loaded.plugins).toEqual([]);
    expect(loaded.errors[0]!.message).toContain(expected);
    expect((globalThis as { __toolsiftEscaped?: boolean }).__toolsiftEscaped).toBeUndefined();
  });

  it("refuses an entry that is a symlink to a file outside the folder", async () => {
    if (process.platform === "win32") return;
    await writeFile(
      join(sandbox.root, "outside.mjs"),
      "globalThis.__toolsiftEscaped = true; export function register() {}",
    );
    await writePlugin(join(sandbox.root, "p"), { manifest: manifestFor("linked", { main: "index.mjs" }) });
    await symlink(join(sandbox.root, "outside.mjs"), join(sandbox.root, "p", "index.mjs"));
    const loaded = await load({ paths: ["p"] });
    expect(loaded.plugins).toEqual([]);
    expect(loaded.errors[0]!.message).toContain("outside the plugin folder");
    expect((globalThis as { __toolsiftEscaped?: boolean }).__toolsiftEscaped).toBeUndefined();
  });

  it("accepts an entry in a sub-folder", async () => {
    await writePlugin(join(sandbox.root, "p"), {
      manifest: manifestFor("nested", { main: "dist/plugin.js", tools: ["n"] }),
      files: { "dist/plugin.js": echoToolsEntry(["n"]) },
    });
    const loaded = await load({ paths: ["p"] });
    expect(loaded.errors).toEqual([]);
    expect(loaded.plugins[0]?.tools).toEqual(["n"]);
  });
});
