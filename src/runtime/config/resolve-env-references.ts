import { ToolsiftError } from "../../shared/errors/index.js";
import { type ConfigPathSegment, formatConfigPath, isPlainRecord } from "./config-path.js";
import { readEnvReference } from "./env-reference.js";
import { MAX_CONFIG_DEPTH } from "./limits.js";

/** A config with its `env:NAME` values replaced, and one warning per variable that was not set. */
export interface ResolvedEnvReferences<Config> {
  config: Config;
  warnings: string[];
}

/**
 * Replaces every string value that is exactly `"env:NAME"` with the variable's value from `env`, anywhere in
 * the config (plugin config included; keys are never replaced). An unset or empty variable is not an error:
 * the key is left out (an array element is dropped) and a warning `<path>: environment variable NAME is not
 * set` is returned. Returns a fresh copy; the input is not changed.
 */
export function resolveEnvReferences<Config>(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedEnvReferences<Config> {
  const warnings: string[] = [];
  const resolved = copy(config, [], env, warnings);
  return { config: (resolved.present ? resolved.value : undefined) as Config, warnings };
}

function copy(
  value: unknown,
  segments: ConfigPathSegment[],
  env: NodeJS.ProcessEnv,
  warnings: string[],
): { present: boolean; value: unknown } {
  if (typeof value === "string") {
    const reference = readEnvReference(value);
    if (reference.kind !== "reference") return { present: true, value };
    const variable = env[reference.name];
    if (variable === undefined || variable === "") {
      const state = variable === undefined ? "is not set" : "is empty";
      warnings.push(`${formatConfigPath(segments)}: environment variable ${reference.name} ${state}`);
      return { present: false, value: undefined };
    }
    return { present: true, value: variable };
  }
  const isArray = Array.isArray(value);
  if (!isArray && !isPlainRecord(value)) return { present: true, value };
  if (segments.length >= MAX_CONFIG_DEPTH) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `${formatConfigPath(segments)}: nested deeper than ${MAX_CONFIG_DEPTH} levels; flatten this value.`,
    );
  }
  if (isArray) {
    const items: unknown[] = [];
    (value as unknown[]).forEach((item, index) => {
      const entry = copy(item, [...segments, index], env, warnings);
      if (entry.present) items.push(entry.value);
    });
    return { present: true, value: items };
  }
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const entry = copy(item, [...segments, key], env, warnings);
    // defineProperty, not assignment: a "__proto__" key stays data and never reaches a prototype.
    if (entry.present) {
      Object.defineProperty(result, key, {
        value: entry.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return { present: true, value: result };
}
