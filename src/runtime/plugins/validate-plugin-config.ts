import { pluginMessage } from "./plugin-message.js";
import { compilePluginSchema, describeSchemaErrors } from "./plugin-schema-validator.js";
import type { PluginManifest } from "./types.js";

/** The config handed to `register`, or why the plugin cannot load. */
export type PluginConfigResult = { ok: true; config: unknown } | { ok: false; message: string };

function copyOf(value: unknown): unknown {
  return value === undefined ? undefined : structuredClone(value);
}

/**
 * The plugin's `plugins.entries.<id>.config`, copied (the plugin cannot change the loaded config). With a
 * manifest `configSchema`, the copy is validated with ajv and its declared defaults filled in; a missing
 * config is validated as `{}`. Never throws.
 */
export function validatePluginConfig(
  manifest: PluginManifest,
  config: unknown,
  manifestPath: string,
): PluginConfigResult {
  let copy: unknown;
  try {
    copy = copyOf(config);
  } catch (error) {
    return {
      ok: false,
      message: `plugins.entries.${manifest.id}.config cannot be copied (${pluginMessage(error)}); use plain JSON values.`,
    };
  }
  if (manifest.configSchema === undefined) return { ok: true, config: copy };
  const compiled = compilePluginSchema(manifest.configSchema);
  if (!compiled.ok) {
    return {
      ok: false,
      message: `"configSchema" in ${manifestPath} is not a valid JSON Schema: ${compiled.reason}.`,
    };
  }
  const candidate = copy === undefined ? {} : copy;
  if (!compiled.validate(candidate)) {
    return {
      ok: false,
      message: `plugins.entries.${manifest.id}.config does not match the plugin's configSchema: ${describeSchemaErrors(compiled.validate.errors, `plugins.entries.${manifest.id}.config`)}. Fix the config file.`,
    };
  }
  return { ok: true, config: candidate };
}
