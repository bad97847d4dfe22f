import { ToolsiftError } from "../../shared/errors/index.js";
import type { CatalogEntry, CatalogSnapshot, ToolDefinition } from "../catalog/index.js";
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
import { formatSettingIssues, readToolSearchSettings } from "./read-tool-search-settings.js";
import { resolveToolSearchConfig } from "./resolve-tool-search-config.js";
import { RunCatalog } from "./run-catalog.js";
import type { ResolvedToolSearchConfig } from "./settings-types.js";
import { TelemetryCounters } from "./telemetry-counters.js";
import { libraryToolSearchCaches, type ToolSearchCaches } from "./tool-search-caches.js";
import type { ToolSearch, ToolSearchOptions } from "./types.js";
import { visibleEntries } from "./visible-entries.js";
import { wrapForModel } from "./wrap-for-model.js";

const CATALOG_UNAVAILABLE = "Tool Search catalog is unavailable for this run.";

/** createToolSearch's options as a host inside this package hands them: with the caches its runs share. */
export type ToolSearchHostOptions = ToolSearchOptions & {
  /** The caches shared with the host's other runs. Default: the library's own (libraryToolSearchCaches). */
  caches?: ToolSearchCaches;
};

/** What one run settles before it builds anything: its resolved settings and the names kept visible. */
type RunSettings = {
  resolved: ResolvedToolSearchConfig;
  /** The host's directToolNames plus the operator's pins (`tools.toolSearch.alwaysVisible`). */
  directToolNames: ReadonlySet<string>;
  /** True in directory mode with Tool Search on: client tools are declared, so their names must not clash. */
  declaresClientTools: boolean;
};

/** Reads the settings once (settings a config loader already read are used as they are) and resolves them. */
function runSettings(options: ToolSearchOptions): RunSettings {
  const reading = readToolSearchSettings(options.config);
  if (reading.settings === undefined) {
    throw new ToolsiftError("CONFIG_INVALID", formatSettingIssues(reading.issues));
  }
  const settings = reading.settings;
  const resolved = resolveToolSearchConfig(settings, {
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

/** Creates Tool Search for one run: the catalog, the model-facing surface, the directory and the controls. */
export function createToolSearch(options: ToolSearchOptions): ToolSearch {
  return openToolSearch(options, libraryToolSearchCaches());
}

/** createToolSearch over the host's caches (`options.caches`), for the runtime's runs. */
export function createHostToolSearch(options: ToolSearchHostOptions): ToolSearch {
  return openToolSearch(options, options.caches ?? libraryToolSearchCaches());
}

function openToolSearch(options: ToolSearchOptions, caches: ToolSearchCaches): ToolSearch {
  const harness = options.harness ?? "embedded";
  const { resolved, directToolNames, declaresClientTools } = runSettings(options);
  const mode = resolved.mode;
  const budget = directoryBudget(options.contextWindowTokens);
  const skills = [...(options.skills ?? [])];
  const counters = new TelemetryCounters();
  const catalog = new RunCatalog(options.tools, caches.catalogs, declaresClientTools);
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
  const controls = createControlTools(runtime);

  const visible = (): readonly CatalogEntry[] =>
    visibleEntries(catalog.snapshot, directToolNames, mode === "directory");
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
    enabled: resolved.enabled,
    mode,
    modelTools() {
      assertOpen();
      if (!resolved.enabled) return catalog.allowedTools();
      return [...controls, ...visible().map(modelFacing), ...catalog.directOnly.map(modelFacing)];
    },
    directory() {
      assertOpen();
      if (!resolved.enabled) return undefined;
      const visibleNames = new Set([...visible(), ...catalog.directOnly].map((entry) => entry.name));
      return caches.directories.render(catalog.snapshot, { visibleNames, mode, budget });
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
      if (!resolved.enabled || mode !== "directory" || harness !== "embedded") return undefined;
      if (typeof name !== "string" || name.trim() !== name || name.length === 0) return undefined;
      const matches = catalog.snapshot.withName(name);
      if (matches.length !== 1 || !matches[0] || new Set(visible()).has(matches[0])) return undefined;
      return wrapForModel(matches[0], executor, "directory");
    },
  };
}
