import { ToolsiftError } from "../../shared/errors/index.js";
import type { CatalogSnapshot } from "../catalog/index.js";
import {
  type ControlRuntime,
  createControlTools,
  describeEntry,
  resolveTarget,
  runToolCall,
  searchCandidates,
  type Telemetry,
} from "../controls/index.js";
import { directoryBudget } from "../directory/index.js";
import { createExecutor, type Executor } from "../execution/index.js";
import { createModelSurface } from "./model-surface.js";
import { requireToolSearchSettings } from "./read-tool-search-settings.js";
import { resolveToolSearchSettings } from "./resolve-tool-search-config.js";
import { RunCatalog } from "./run-catalog.js";
import type { ResolvedToolSearchConfig, ToolSearchSettings } from "./settings-types.js";
import { TelemetryCounters } from "./telemetry-counters.js";
import { libraryToolSearchCaches, type ToolSearchCaches } from "./tool-search-caches.js";
import type { ToolSearch, ToolSearchOptions } from "./types.js";

const CATALOG_UNAVAILABLE = "Tool Search catalog is unavailable for this run.";

/** The options of one run besides its settings: the tools, the run's profile and hooks. */
type RunOptions = Omit<ToolSearchOptions, "config">;

/**
 * createToolSearch's options as a host inside this package hands them: `tools.toolSearch` already read
 * (the host reads it once for all its runs), and the caches its runs share.
 */
export type ToolSearchHostOptions = RunOptions & {
  /** `tools.toolSearch` as the host read it (readToolSearchSettings). */
  settings: ToolSearchSettings;
  /** The caches shared with the host's other runs. Default: the library's own (libraryToolSearchCaches). */
  caches?: ToolSearchCaches;
  /**
   * The version of `tools` their sources state (equal versions mean the very same definitions): the shared
   * catalog is found by it. Default: none (found by the definitions' identity).
   */
  toolsVersion?: string;
};

/** What one run settles before it builds anything: its resolved settings and the names kept visible. */
type RunSettings = {
  resolved: ResolvedToolSearchConfig;
  /** The host's directToolNames plus the operator's pins (`tools.toolSearch.alwaysVisible`). */
  directToolNames: ReadonlySet<string>;
  /** True in directory mode with Tool Search on: client tools are declared, so their names must not clash. */
  declaresClientTools: boolean;
};

/** Resolves the run's settings for its harness, model and Code Mode, and adds the operator's pins. */
function runSettings(options: RunOptions, settings: ToolSearchSettings): RunSettings {
  const resolved = resolveToolSearchSettings(settings, {
    harness: options.harness ?? "embedded",
    ...(options.model ? { model: options.model } : {}),
    ...(options.codeModeEnabled ? { codeModeEnabled: true } : {}),
  });
  return {
    resolved,
    directToolNames: new Set([...(options.directToolNames ?? []), ...settings.alwaysVisible]),
    declaresClientTools: resolved.enabled && resolved.mode === "directory",
  };
}

/** The controls' view of the run: its catalog, its limits, its shared index and its executor. */
function controlRuntime(input: {
  snapshot: () => CatalogSnapshot;
  catalog: RunCatalog;
  resolved: ResolvedToolSearchConfig;
  caches: ToolSearchCaches;
  executor: Executor;
  counters: TelemetryCounters;
  skills: ControlRuntime["skills"];
}): ControlRuntime {
  const { snapshot, catalog, resolved, caches, executor, counters } = input;
  return {
    snapshot,
    limits: () => ({
      searchDefaultLimit: resolved.searchDefaultLimit,
      maxSearchLimit: resolved.maxSearchLimit,
    }),
    search: (query, limit) => caches.indexes.search(snapshot(), query, limit),
    directOnlyNames: () => new Set(catalog.directOnly.map((entry) => entry.name)),
    skills: input.skills,
    execute: (entry, args, context) => executor.execute(entry, args, { ...context, surface: "control" }),
    count: (kind, amount) => counters.count(kind, amount),
  };
}

/**
 * Creates Tool Search for one run: the catalog, the model-facing surface, the directory and the controls.
 * Reads `options.config` once (CONFIG_INVALID listing every problem when it is invalid).
 */
export function createToolSearch(options: ToolSearchOptions): ToolSearch {
  return openToolSearch(options, {
    settings: requireToolSearchSettings(options.config),
    caches: libraryToolSearchCaches(),
  });
}

/** createToolSearch with settings already read, over the host's caches (`options.caches`), for the runtime's runs. */
export function createHostToolSearch(options: ToolSearchHostOptions): ToolSearch {
  return openToolSearch(options, {
    settings: options.settings,
    caches: options.caches ?? libraryToolSearchCaches(),
    ...(options.toolsVersion === undefined ? {} : { toolsVersion: options.toolsVersion }),
  });
}

/** What the entry point settled for a run: its read settings, its caches, and the version of its tools. */
type RunHost = { settings: ToolSearchSettings; caches: ToolSearchCaches; toolsVersion?: string };

function openToolSearch(options: RunOptions, host: RunHost): ToolSearch {
  const { caches, toolsVersion } = host;
  const { resolved, directToolNames, declaresClientTools } = runSettings(options, host.settings);
  const mode = resolved.mode;
  const skills = [...(options.skills ?? [])];
  const counters = new TelemetryCounters();
  const catalog = new RunCatalog({
    tools: options.tools,
    ...(toolsVersion === undefined ? {} : { version: toolsVersion }),
    catalogs: caches.catalogs,
    checkClientNames: declaresClientTools,
  });
  let closed = false;
  let closedTelemetry: Telemetry | undefined;

  const executor: Executor = createExecutor({
    isAvailable: (entry) => !closed && catalog.holds(entry),
    validators: caches.validators,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  const assertOpen = () => {
    if (closed) throw new ToolsiftError("CATALOG_CLOSED", CATALOG_UNAVAILABLE);
  };
  const currentSnapshot = (): CatalogSnapshot => {
    assertOpen();
    return catalog.snapshot;
  };
  const runtime = controlRuntime({
    snapshot: currentSnapshot,
    catalog,
    resolved,
    caches,
    executor,
    counters,
    skills: () => skills,
  });
  const surface = createModelSurface({
    catalog,
    enabled: resolved.enabled,
    mode,
    harness: options.harness ?? "embedded",
    budget: directoryBudget(options.contextWindowTokens),
    directToolNames,
    controls: createControlTools(runtime),
    executor,
    directories: caches.directories,
  });

  return {
    enabled: resolved.enabled,
    mode,
    modelTools() {
      assertOpen();
      return surface.modelTools();
    },
    directory() {
      assertOpen();
      return surface.directory();
    },
    search(query, searchOptions) {
      return searchCandidates(runtime, query, searchOptions?.limit);
    },
    describe(idOrName) {
      const description = describeEntry(resolveTarget(runtime, idOrName));
      counters.count("describe");
      return description;
    },
    call(idOrName, args, context) {
      return runToolCall(runtime, { id: idOrName, args }, context ?? {});
    },
    restrict(names) {
      assertOpen();
      catalog.restrict(names);
    },
    addClientTools(tools) {
      assertOpen();
      catalog.addClientTools(tools);
    },
    telemetry() {
      return closedTelemetry ? structuredClone(closedTelemetry) : counters.read(catalog.snapshot);
    },
    close() {
      if (closed) return;
      closedTelemetry = counters.read(catalog.snapshot);
      closed = true;
      executor.close();
    },
    replaceTools(tools) {
      assertOpen();
      catalog.replace(tools);
      counters.reset();
    },
    resolveDirectoryName(name) {
      assertOpen();
      return surface.resolveDirectoryName(name);
    },
  };
}
