import { ToolsiftError } from "../../shared/errors/index.js";
import { isLocalModel } from "./is-local-model.js";
import { LOCAL_MAX_SEARCH_LIMIT, LOCAL_SEARCH_DEFAULT_LIMIT } from "./limits.js";
import { requireToolSearchSettings } from "./read-tool-search-settings.js";
import { resolveSearchLimits } from "./search-limits.js";
import type {
  Harness,
  ResolvedToolSearchConfig,
  ResolveToolSearchOptions,
  ToolSearchSettings,
} from "./settings-types.js";

const HARNESSES: readonly Harness[] = ["embedded", "copilot", "codex"];

/**
 * Resolves a raw `tools.toolSearch` value for a run (pure): reads it (requireToolSearchSettings: an invalid
 * or retired value throws a `CONFIG_INVALID` ToolsiftError listing every problem as `path: reason`), then
 * resolves the settings (resolveToolSearchSettings).
 */
export function resolveToolSearchConfig(
  value: unknown,
  options: ResolveToolSearchOptions = {},
): ResolvedToolSearchConfig {
  return resolveToolSearchSettings(requireToolSearchSettings(value), options);
}

/**
 * Resolves read settings for a run (pure). Unset means automatic (on, `tools` mode, 8/20 or 5/10 for a
 * local model); an explicit value always wins, `false` included. The `codex` harness and an enabled Code
 * Mode turn Tool Search off for the run whatever the value says; the `copilot` harness cannot register
 * hidden names as handlers, so `directory` mode gets `tools` semantics there (this is the one place that
 * rule is applied). An unknown harness throws a `CONFIG_INVALID` ToolsiftError.
 */
export function resolveToolSearchSettings(
  settings: ToolSearchSettings,
  options: ResolveToolSearchOptions = {},
): ResolvedToolSearchConfig {
  const harness = options.harness ?? "embedded";
  if (!HARNESSES.includes(harness)) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `harness: expected "embedded" | "copilot" | "codex" (got ${JSON.stringify(String(harness))})`,
    );
  }

  const origin = settings.explicit ? "explicit" : "auto";
  const local = origin === "auto" && options.model !== undefined && isLocalModel(options.model);
  const limits = resolveSearchLimits(
    settings,
    local
      ? { searchDefaultLimit: LOCAL_SEARCH_DEFAULT_LIMIT, maxSearchLimit: LOCAL_MAX_SEARCH_LIMIT }
      : undefined,
  );
  const mode = harness === "copilot" ? "tools" : settings.mode;
  const enabled = settings.enabled && harness !== "codex" && options.codeModeEnabled !== true;
  return { enabled, mode, ...limits, origin };
}
