import type { CatalogEntry, ToolDefinition } from "../catalog/index.js";
import type { ToolSearchMode } from "../directory/index.js";
import type { Executor } from "../execution/index.js";
import type { DirectoryCache } from "./directory-cache.js";
import type { RunCatalog } from "./run-catalog.js";
import type { Harness } from "./settings-types.js";
import { visibleEntries } from "./visible-entries.js";
import { wrapForModel } from "./wrap-for-model.js";

/** What the model is shown of one run: the declared tools, the directory, and hidden names it may call. */
export interface ModelSurface {
  /** Controls + visible tools + direct-only tools, or the allowed tools unchanged when Tool Search is off. */
  modelTools(): ToolDefinition[];
  /** The directory text, or undefined when Tool Search is off. */
  directory(): string | undefined;
  /** A cataloged, not visible tool the model called by its exact name (directory mode, embedded harness). */
  resolveDirectoryName(name: unknown): ToolDefinition | undefined;
}

/** Inputs of createModelSurface: the run's catalog and settings, its executor and controls. */
export type ModelSurfaceInput = {
  catalog: RunCatalog;
  enabled: boolean;
  mode: ToolSearchMode;
  harness: Harness;
  /** Directory budget in characters. */
  budget: number;
  directToolNames: ReadonlySet<string>;
  controls: readonly ToolDefinition[];
  executor: Executor;
  directories: DirectoryCache;
};

/**
 * The model-facing side of one run. Visible entries are wrapped once per entry for the run, so the same
 * entry is declared as the same definition on every turn; every call still passes the run's executor.
 */
export function createModelSurface(input: ModelSurfaceInput): ModelSurface {
  const { catalog, enabled, mode, executor } = input;
  const visible = (): readonly CatalogEntry[] =>
    visibleEntries(catalog.snapshot, input.directToolNames, mode === "directory");
  const wrapped = new WeakMap<CatalogEntry, ToolDefinition>();
  const modelFacing = (entry: CatalogEntry): ToolDefinition => {
    let definition = wrapped.get(entry);
    if (!definition) {
      definition = wrapForModel(entry, executor, "direct");
      wrapped.set(entry, definition);
    }
    return definition;
  };

  return {
    modelTools() {
      if (!enabled) return catalog.allowedTools();
      return [...input.controls, ...visible().map(modelFacing), ...catalog.directOnly.map(modelFacing)];
    },
    directory() {
      if (!enabled) return undefined;
      const visibleNames = new Set([...visible(), ...catalog.directOnly].map((entry) => entry.name));
      return input.directories.render(catalog.snapshot, { visibleNames, mode, budget: input.budget });
    },
    resolveDirectoryName(name) {
      if (!enabled || mode !== "directory" || input.harness !== "embedded") return undefined;
      if (typeof name !== "string" || name.trim() !== name || name.length === 0) return undefined;
      const matches = catalog.snapshot.withName(name);
      if (matches.length !== 1 || !matches[0] || new Set(visible()).has(matches[0])) return undefined;
      return wrapForModel(matches[0], executor, "directory");
    },
  };
}
