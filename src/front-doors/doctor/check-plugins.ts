import { isPlainRecord, readConfigPath } from "../../runtime/config/index.js";
import { loadPlugins } from "../../runtime/plugins/index.js";
import { MAX_LISTED_PLUGIN_TOOLS } from "./limits.js";
import type { DoctorCheck } from "./types.js";

/**
 * Loads the plugins of `plugins.load.paths` as the gateway would (relative paths against `configDir`, honouring
 * `plugins.allow` and each plugin's config schema) and gives one finding per plugin: loaded (with its tools),
 * failed (an error, with the loader's message), or skipped by `plugins.allow`. Plugin log lines are dropped.
 */
export async function checkPlugins(config: unknown, configDir: string): Promise<DoctorCheck[]> {
  const paths = stringList(readConfigPath(config, ["plugins", "load", "paths"]).value);
  if (paths.length === 0) return [{ name: "plugins", status: "ok", message: "no plugins configured" }];
  const allow = stringList(readConfigPath(config, ["plugins", "allow"]).value);
  const entries = readConfigPath(config, ["plugins", "entries"]).value;
  const loaded = await loadPlugins({
    paths,
    ...(allow.length > 0 ? { allow } : {}),
    ...(isPlainRecord(entries) ? { entries: entries as Record<string, { config?: unknown }> } : {}),
    baseDir: configDir,
    log: () => undefined,
  });

  const checks: DoctorCheck[] = loaded.plugins.map((plugin) => ({
    name: "plugins",
    status: "ok",
    message: `${plugin.id}: loaded from ${plugin.dir} (${describeTools(plugin.tools)})`,
  }));
  for (const error of loaded.errors) {
    checks.push({
      name: "plugins",
      status: "error",
      message: `${error.pluginId ?? error.path}: ${error.message}`,
      fix: "fix the plugin, or remove it from plugins.load.paths",
    });
  }
  for (const skipped of loaded.skipped) {
    checks.push({ name: "plugins", status: "ok", message: `${skipped.id}: skipped (${skipped.reason})` });
  }
  return checks;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function describeTools(tools: readonly string[]): string {
  if (tools.length === 0) return "no tools";
  const listed = tools.slice(0, MAX_LISTED_PLUGIN_TOOLS).join(", ");
  const more =
    tools.length > MAX_LISTED_PLUGIN_TOOLS ? `, … ${tools.length - MAX_LISTED_PLUGIN_TOOLS} more` : "";
  return `${tools.length} tool${tools.length === 1 ? "" : "s"}: ${listed}${more}`;
}
