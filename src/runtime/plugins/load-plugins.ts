import { join } from "node:path";
import { findPluginDirs } from "./find-plugin-dirs.js";
import { PLUGIN_REGISTER_TIMEOUT_MS } from "./limits.js";
import { loadPlugin } from "./load-plugin.js";
import { pluginMessage, writePluginLog } from "./plugin-message.js";
import { PLUGIN_MANIFEST_FILE, readPluginManifest } from "./read-plugin-manifest.js";
import type { LoadedPlugins, LoadPluginsOptions, PluginLogEntry } from "./types.js";
import { validatePluginConfig } from "./validate-plugin-config.js";

function emptyResult(): LoadedPlugins {
  return { plugins: [], tools: [], hooks: { beforeToolCall: [], beforePrompt: [] }, errors: [], skipped: [] };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function entryConfig(entries: unknown, id: string): unknown {
  if (typeof entries !== "object" || entries === null || !Object.hasOwn(entries, id)) return undefined;
  const entry = (entries as Record<string, unknown>)[id];
  return typeof entry === "object" && entry !== null ? (entry as { config?: unknown }).config : undefined;
}

/**
 * Loads the plugins of `plugins.load.paths` in order (paths order, then folder name order). With a
 * non-empty `allow`, other ids are listed in `skipped` without running their code. A plugin that fails
 * (bad manifest, invalid config, entry missing or outside its folder, import or register throwing or
 * timing out, a duplicate id) is reported in `errors` and contributes nothing. Never throws.
 */
export async function loadPlugins(options: LoadPluginsOptions): Promise<LoadedPlugins> {
  const result = emptyResult();
  try {
    await loadInto(result, options);
  } catch (error) {
    result.errors.push({
      path: String(options?.baseDir),
      message: `Loading plugins failed: ${pluginMessage(error)}`,
    });
  }
  return result;
}

async function loadInto(result: LoadedPlugins, options: LoadPluginsOptions): Promise<void> {
  const allow = stringList(options.allow);
  const log = (entry: PluginLogEntry): void => (options.log ?? writePluginLog)(entry);
  const timeoutMs = options.registerTimeoutMs ?? PLUGIN_REGISTER_TIMEOUT_MS;
  const found = await findPluginDirs(
    Array.isArray(options.paths) ? options.paths : [],
    String(options.baseDir),
  );
  result.errors.push(...found.errors);
  const loadedFrom = new Map<string, string>();
  const seenIds = new Set<string>();

  for (const dir of found.dirs) {
    const manifestPath = join(dir, PLUGIN_MANIFEST_FILE);
    const read = await readPluginManifest(dir);
    if (!read.ok) {
      result.errors.push({ path: manifestPath, message: read.message });
      continue;
    }
    const { manifest } = read;
    seenIds.add(manifest.id);
    if (allow.length > 0 && !allow.includes(manifest.id)) {
      result.skipped.push({ id: manifest.id, dir, reason: `"${manifest.id}" is not in plugins.allow` });
      continue;
    }
    const earlier = loadedFrom.get(manifest.id);
    if (earlier !== undefined) {
      result.errors.push({
        pluginId: manifest.id,
        path: dir,
        message: `Plugin id "${manifest.id}" in ${manifestPath} is already used by ${earlier}; give one of them another id or remove it from plugins.load.paths.`,
      });
      continue;
    }
    loadedFrom.set(manifest.id, dir);
    const config = validatePluginConfig(manifest, entryConfig(options.entries, manifest.id), manifestPath);
    if (!config.ok) {
      result.errors.push({ pluginId: manifest.id, path: dir, message: config.message });
      continue;
    }
    const outcome = await loadPlugin({ dir, manifest, config: config.config, log, timeoutMs });
    if (!outcome.ok) {
      result.errors.push({ pluginId: manifest.id, path: dir, message: outcome.message });
      continue;
    }
    result.plugins.push(outcome.info);
    result.tools.push(...outcome.registration.tools);
    result.hooks.beforeToolCall.push(...outcome.registration.beforeToolCall);
    result.hooks.beforePrompt.push(...outcome.registration.beforePrompt);
  }

  for (const id of allow) {
    if (!seenIds.has(id)) {
      result.errors.push({
        pluginId: id,
        path: "plugins.allow",
        message: `plugins.allow names "${id}", but no plugin with that id was found in plugins.load.paths; fix the id or add the plugin's folder to plugins.load.paths.`,
      });
    }
  }
}
