import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { loadPlugins } from "./load-plugins.js";
import { PLUGIN_MANIFEST_FILE } from "./read-plugin-manifest.js";
import type { LoadedPlugins, LoadPluginsOptions, PluginLogEntry } from "./types.js";

/** A temp directory for plugin folders, removed by `cleanup`. */
export async function createPluginSandbox(): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), "toolsift-plugins-"));
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** What writePlugin puts in a plugin folder. */
export interface PluginFiles {
  /** The manifest: an object (serialised) or raw text. Omit for a folder without one. */
  manifest?: Record<string, unknown> | string;
  /** Other files, by path relative to the folder (default: none). */
  files?: Record<string, string>;
  /** Write `package.json` with `"type": "module"` (default true). */
  esm?: boolean;
}

/** Writes a plugin folder at `dir` (created) and returns it. */
export async function writePlugin(dir: string, plugin: PluginFiles): Promise<string> {
  await mkdir(dir, { recursive: true });
  if (plugin.manifest !== undefined) {
    const text =
      typeof plugin.manifest === "string" ? plugin.manifest : JSON.stringify(plugin.manifest, null, 2);
    await writeFile(join(dir, PLUGIN_MANIFEST_FILE), text);
  }
  if (plugin.esm !== false) await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  for (const [name, text] of Object.entries(plugin.files ?? {})) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

/** A minimal valid manifest for `id`, with overrides. */
export function manifestFor(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, name: `Plugin ${id}`, version: "1.0.0", tools: [], ...overrides };
}

/** An entry module whose `register` registers one echo tool per name. */
export function echoToolsEntry(names: string[]): string {
  return `export function register(api) {
  for (const name of ${JSON.stringify(names)}) {
    api.registerTool({
      name,
      description: "Echoes its input.",
      parameters: { type: "object", properties: { text: { type: "string" } } },
      async execute(args) {
        return { content: [{ type: "text", text: name + ":" + JSON.stringify(args) }] };
      },
    });
  }
}
`;
}

/**
 * An entry module with two tools that prove they ran: `touch_marker` appends "ran" to `marker`; `fill_disk`
 * does the same, then appends to `fillPath` until its disk is full (or 4 MB are written).
 */
export function markerToolsEntry(marker: string, fillPath: string): string {
  return `import { appendFileSync, writeFileSync } from "node:fs";
const parameters = { type: "object", properties: {}, additionalProperties: false };
export function register(api) {
  api.registerTool({ name: "touch_marker", description: "Appends a line to the marker file.", parameters,
    execute: async () => { appendFileSync(${JSON.stringify(marker)}, "ran\\n"); return { content: [{ type: "text", text: "marked" }] }; } });
  api.registerTool({ name: "fill_disk", description: "Marks, then fills the state directory's disk.", parameters,
    execute: async () => {
      appendFileSync(${JSON.stringify(marker)}, "ran\\n");
      try { for (let i = 0; i < 1000; i += 1) writeFileSync(${JSON.stringify(fillPath)}, Buffer.alloc(4096, 97), { flag: "a" }); } catch {}
      return { content: [{ type: "text", text: "filled" }] };
    } });
}
`;
}

/** A plugin sandbox made before each test and removed after it, with a loader whose log lines land in `logs`. */
export type LoaderSandbox = {
  /** The current test's sandbox directory. */
  root: string;
  /** The current test's plugin log lines. */
  logs: PluginLogEntry[];
  /** `loadPlugins` over the sandbox, logging into `logs`. */
  load(options: Partial<LoadPluginsOptions> & { paths: string[] }): Promise<LoadedPlugins>;
};

/** Registers the hooks of a `LoaderSandbox` for the calling test file and returns it. */
export function useLoaderSandbox(): LoaderSandbox {
  let cleanup: (() => Promise<void>) | undefined;
  const sandbox: LoaderSandbox = {
    root: "",
    logs: [],
    load: (options) =>
      loadPlugins({ baseDir: sandbox.root, log: (entry) => sandbox.logs.push(entry), ...options }),
  };
  beforeEach(async () => {
    const made = await createPluginSandbox();
    sandbox.root = made.root;
    cleanup = made.cleanup;
    sandbox.logs = [];
  });
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });
  return sandbox;
}
