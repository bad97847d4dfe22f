import { ToolsiftError } from "../../shared/errors/index.js";
import {
  buildCatalog,
  type CatalogEntry,
  type CatalogSnapshot,
  createCatalogSnapshot,
  sharedCatalog,
  type ToolDefinition,
  toCatalogEntry,
} from "../catalog/index.js";
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
import { asClientTool } from "./as-client-tool.js";
import { cachedDirectory } from "./directory-cache.js";
import { assertNoClientNameClash } from "./name-clash.js";
import { formatSettingIssues, readToolSearchSettings } from "./read-tool-search-settings.js";
import { resolveToolSearchConfig } from "./resolve-tool-search-config.js";
import { searchShared } from "./shared-index.js";
import { TelemetryCounters } from "./telemetry-counters.js";
import type { ToolSearch, ToolSearchOptions } from "./types.js";
import { visibleEntries as sharedVisibleEntries } from "./visible-entries.js";
import { wrapForModel } from "./wrap-for-model.js";

const CATALOG_UNAVAILABLE = "Tool Search catalog is unavailable for this run.";

/**
 * The snapshot of `entries`: `previous` itself when `entries` are exactly its entries and it holds each of
 * them unchanged (none was cut to the metadata budget), since a new snapshot would then have the same
 * entries, lookups and fingerprint; otherwise a new one. Used only right after `previous` was made from
 * the same entries (nothing can have changed them in between): spares re-fingerprinting every schema.
 */
function snapshotOf(previous: CatalogSnapshot, entries: readonly CatalogEntry[]): CatalogSnapshot {
  const same =
    entries.length === previous.entries.length &&
    entries.every((entry, index) => entry === previous.entries[index] && previous.holds(entry));
  return same ? previous : createCatalogSnapshot(entries);
}

/** Creates Tool Search for one run: the catalog, the model-facing surface, the directory and the controls. */
export function createToolSearch(options: ToolSearchOptions): ToolSearch {
  const harness = options.harness ?? "embedded";
  // Read once: settings a config loader already read are used as they are.
  const reading = readToolSearchSettings(options.config);
  if (reading.settings === undefined) {
    throw new ToolsiftError("CONFIG_INVALID", formatSettingIssues(reading.issues));
  }
  const settings = reading.settings;
  const resolved = resolveToolSearchConfig(settings, {
    harness,
    ...(options.model ? { model: options.model } : {}),
    ...(options.codeModeEnabled ? { codeModeEnabled: true } : {}),
  });
  const mode = resolved.mode;
  // Operator pins (tools.toolSearch.alwaysVisible) join the host's directToolNames: names or ids of native tools.
  const directToolNames = new Set([...(options.directToolNames ?? []), ...settings.alwaysVisible]);
  const budget = directoryBudget(options.contextWindowTokens);
  const skills = [...(options.skills ?? [])];
  const counters = new TelemetryCounters();

  let originalTools: readonly ToolDefinition[] = [...options.tools];
  const restrictions: Set<string>[] = [];
  let snapshot: CatalogSnapshot;
  let directOnly: CatalogEntry[] = [];
  let closed = false;
  let closedTelemetry: Telemetry | undefined;
  const wrapped = new WeakMap<CatalogEntry, ToolDefinition>();

  const allowed = (entry: CatalogEntry) =>
    restrictions.every((names) => names.has(entry.name) || names.has(entry.id));
  const rebuild = (tools: readonly ToolDefinition[]) => {
    // Shared with every run handed the same definitions; this run's restrictions make a view of its own.
    const build = sharedCatalog(tools);
    snapshot =
      restrictions.length === 0
        ? build.snapshot
        : snapshotOf(build.snapshot, build.snapshot.entries.filter(allowed));
    directOnly = build.directOnly.flatMap((tool) => {
      const entry = toCatalogEntry(tool);
      return entry && allowed(entry) ? [entry] : [];
    });
    if (resolved.enabled && mode === "directory") assertNoClientNameClash(snapshot);
  };
  // The caller's own array: a front door that hands the same array again finds its catalog without a pass.
  rebuild(options.tools);

  const executor: Executor = createExecutor({
    isAvailable: (entry) => !closed && (snapshot.holds(entry) || directOnly.includes(entry)),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });

  const currentSnapshot = (): CatalogSnapshot => {
    if (closed) throw new ToolsiftError("CATALOG_CLOSED", CATALOG_UNAVAILABLE);
    return snapshot;
  };
  const runtime: ControlRuntime = {
    snapshot: currentSnapshot,
    limits: () => ({
      searchDefaultLimit: resolved.searchDefaultLimit,
      maxSearchLimit: resolved.maxSearchLimit,
    }),
    search: (query, limit) => searchShared(currentSnapshot(), query, limit),
    directOnlyNames: () => new Set(directOnly.map((entry) => entry.name)),
    skills: () => skills,
    execute: (entry, args, context) => executor.execute(entry, args, { ...context, surface: "control" }),
    count: (kind, amount) => counters.count(kind, amount),
  };
  const controls = createControlTools(runtime);

  const visibleEntries = (): readonly CatalogEntry[] =>
    sharedVisibleEntries(snapshot, directToolNames, mode === "directory");
  const modelFacing = (entry: CatalogEntry): ToolDefinition => {
    let definition = wrapped.get(entry);
    if (!definition) {
      definition = wrapForModel(entry, executor, "direct");
      wrapped.set(entry, definition);
    }
    return definition;
  };
  const assertOpen = () => {
    if (closed) throw new ToolsiftError("CATALOG_CLOSED", CATALOG_UNAVAILABLE);
  };

  return {
    enabled: resolved.enabled,
    mode,
    modelTools() {
      assertOpen();
      if (!resolved.enabled) {
        return originalTools.filter((tool) => {
          const entry = toCatalogEntry(tool);
          return entry !== undefined && allowed(entry);
        });
      }
      return [...controls, ...visibleEntries().map(modelFacing), ...directOnly.map(modelFacing)];
    },
    directory() {
      assertOpen();
      if (!resolved.enabled) return undefined;
      const visibleNames = new Set([...visibleEntries(), ...directOnly].map((entry) => entry.name));
      return cachedDirectory(snapshot, { visibleNames, mode, budget });
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
      const next = new Set<string>();
      for (const name of names) if (typeof name === "string") next.add(name);
      restrictions.push(next);
      snapshot = createCatalogSnapshot(snapshot.entries.filter(allowed));
      directOnly = directOnly.filter(allowed);
    },
    addClientTools(tools) {
      assertOpen();
      const clientTools = tools.flatMap((tool) => {
        const copy = asClientTool(tool);
        return copy ? [copy] : [];
      });
      // Nothing to add (most runs): the snapshot, its fingerprint and its search index stay as they are.
      if (clientTools.length === 0) return;
      originalTools = [...originalTools, ...clientTools];
      const build = buildCatalog(clientTools);
      const added = build.snapshot.entries.filter(allowed);
      const next = createCatalogSnapshot([...snapshot.entries, ...added]);
      if (resolved.enabled && mode === "directory") assertNoClientNameClash(next);
      snapshot = next;
      for (const tool of build.directOnly) {
        const entry = toCatalogEntry(tool);
        if (entry && allowed(entry)) directOnly.push(entry);
      }
    },
    telemetry() {
      return closedTelemetry ? structuredClone(closedTelemetry) : counters.read(snapshot);
    },
    close() {
      if (closed) return;
      closedTelemetry = counters.read(snapshot);
      closed = true;
      executor.close();
    },
    replaceTools(tools) {
      assertOpen();
      originalTools = [...tools];
      rebuild(originalTools);
      counters.reset();
    },
    resolveDirectoryName(name) {
      assertOpen();
      if (!resolved.enabled || mode !== "directory" || harness !== "embedded") return undefined;
      if (typeof name !== "string" || name.trim() !== name || name.length === 0) return undefined;
      const matches = snapshot.withName(name);
      const visible = new Set(visibleEntries());
      if (matches.length !== 1 || !matches[0] || visible.has(matches[0])) return undefined;
      return wrapForModel(matches[0], executor, "directory");
    },
  };
}
