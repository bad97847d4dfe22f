import { ToolsiftError } from "../errors/index.js";
import { isLocalModel } from "./is-local-model.js";
import { LOCAL_MAX_SEARCH_LIMIT, LOCAL_SEARCH_DEFAULT_LIMIT } from "./limits.js";
import { formatConfigIssues, readToolSearchValue } from "./read-tool-search-value.js";
import { resolveSearchLimits } from "./resolve-search-limits.js";
import type { Harness, ResolvedToolSearchConfig, ResolveToolSearchOptions, ToolSearchMode } from "./types.js";

const HARNESSES: readonly Harness[] = ["embedded", "copilot", "codex"];

/**
 * Resolves the value of tools.toolSearch for a run (pure). Unset means automatic (on, `tools` mode, 8/20 or
 * 5/10 for a local model); an explicit value always wins, `false` included. The `codex` harness and an
 * enabled Code Mode turn Tool Search off for the run whatever the value says. An invalid or retired value
 * throws a `CONFIG_INVALID` ToolsiftError listing every problem as `path: reason`.
 */
export function resolveToolSearchConfig(
  value: unknown,
  options: ResolveToolSearchOptions = {},
): ResolvedToolSearchConfig {
  const reading = readToolSearchValue(value);
  if (reading.settings === undefined) {
    throw new ToolsiftError("CONFIG_INVALID", formatConfigIssues(reading.issues));
  }
  const harness = options.harness ?? "embedded";
  if (!HARNESSES.includes(harness)) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `harness: expected "embedded" | "copilot" | "codex" (got ${JSON.stringify(String(harness))})`,
    );
  }

  const settings = reading.settings;
  const origin = settings.kind === "unset" ? "auto" : "explicit";
  const local = origin === "auto" && options.model !== undefined && isLocalModel(options.model);
  const limits =
    settings.kind === "object"
      ? resolveSearchLimits(settings)
      : resolveSearchLimits(
          {},
          local
            ? { searchDefaultLimit: LOCAL_SEARCH_DEFAULT_LIMIT, maxSearchLimit: LOCAL_MAX_SEARCH_LIMIT }
            : undefined,
        );

  const configuredMode: ToolSearchMode = settings.kind === "object" ? (settings.mode ?? "tools") : "tools";
  // Copilot cannot register hidden names as handlers, so directory mode gets tools semantics there.
  const mode = harness === "copilot" ? "tools" : configuredMode;
  const configuredEnabled = settings.kind === "unset" ? true : settings.enabled;
  const enabled = configuredEnabled && harness !== "codex" && options.codeModeEnabled !== true;

  return { enabled, mode, ...limits, origin };
}
