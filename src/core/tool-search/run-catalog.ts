import {
  buildCatalog,
  type CatalogCache,
  type CatalogEntry,
  type CatalogSnapshot,
  createCatalogSnapshot,
  type ToolDefinition,
  toCatalogEntry,
} from "../catalog/index.js";
import { asClientTool } from "./as-client-tool.js";
import { assertNoClientNameClash } from "./name-clash.js";

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

/**
 * One run's catalog: the shared catalog of its tools (from `catalogs`), narrowed by the run's restrictions
 * into views of its own, with the client's tools on top. A shared catalog is never edited.
 */
export class RunCatalog {
  /** The run's current snapshot (catalog-mode entries). */
  snapshot!: CatalogSnapshot;
  /** The run's direct-only entries (never cataloged). */
  directOnly: CatalogEntry[] = [];
  /** Every tool handed in (and the client's), for Tool Search turned off. */
  originalTools: readonly ToolDefinition[];
  private readonly restrictions: Set<string>[] = [];

  private readonly catalogs: CatalogCache;
  private readonly checkClientNames: boolean;

  constructor(options: {
    tools: readonly ToolDefinition[];
    /** The tools' version from their sources, when they state one (the shared catalog is found by it). */
    version?: string;
    catalogs: CatalogCache;
    /** Directory mode: a client tool may not share a name with a cataloged one. */
    checkClientNames: boolean;
  }) {
    this.catalogs = options.catalogs;
    this.checkClientNames = options.checkClientNames;
    this.originalTools = [...options.tools];
    // The caller's own array: a front door that hands the same array again finds its catalog without a pass.
    this.rebuild(options.tools, options.version);
  }

  /** True when every restriction so far names the entry (by name or id). */
  allowed = (entry: CatalogEntry): boolean =>
    this.restrictions.every((names) => names.has(entry.name) || names.has(entry.id));

  /** True when `entry` is one of the run's current entries. */
  holds(entry: CatalogEntry): boolean {
    return this.snapshot.holds(entry) || this.directOnly.includes(entry);
  }

  /** The tools handed in that the restrictions allow, as they are. */
  allowedTools(): ToolDefinition[] {
    return this.originalTools.filter((tool) => {
      const entry = toCatalogEntry(tool);
      return entry !== undefined && this.allowed(entry);
    });
  }

  /** A new tool set (an upstream's `list_changed`): restrictions apply as before. */
  replace(tools: readonly ToolDefinition[]): void {
    this.originalTools = [...tools];
    this.rebuild(this.originalTools);
  }

  /** Narrows the catalog to `names` (names or ids); never widens. */
  restrict(names: Iterable<unknown>): void {
    const next = new Set<string>();
    for (const name of names) if (typeof name === "string") next.add(name);
    this.restrictions.push(next);
    this.snapshot = createCatalogSnapshot(this.snapshot.entries.filter(this.allowed));
    this.directOnly = this.directOnly.filter(this.allowed);
  }

  /** Appends the client's tools (copies attributed to the client). */
  addClientTools(tools: readonly ToolDefinition[]): void {
    const clientTools = tools.flatMap((tool) => {
      const copy = asClientTool(tool);
      return copy ? [copy] : [];
    });
    // Nothing to add (most runs): the snapshot, its fingerprint and its search index stay as they are.
    if (clientTools.length === 0) return;
    this.originalTools = [...this.originalTools, ...clientTools];
    const build = buildCatalog(clientTools);
    const added = build.snapshot.entries.filter(this.allowed);
    const next = createCatalogSnapshot([...this.snapshot.entries, ...added]);
    if (this.checkClientNames) assertNoClientNameClash(next);
    this.snapshot = next;
    this.directOnly.push(...this.allowedEntries(build.directOnly));
  }

  private rebuild(tools: readonly ToolDefinition[], version?: string): void {
    // Shared with every run handed the same definitions; this run's restrictions make a view of its own.
    const build = this.catalogs.get(tools, version);
    this.snapshot =
      this.restrictions.length === 0
        ? build.snapshot
        : snapshotOf(build.snapshot, build.snapshot.entries.filter(this.allowed));
    this.directOnly = this.allowedEntries(build.directOnly);
    if (this.checkClientNames) assertNoClientNameClash(this.snapshot);
  }

  private allowedEntries(tools: readonly ToolDefinition[]): CatalogEntry[] {
    return tools.flatMap((tool) => {
      const entry = toCatalogEntry(tool);
      return entry && this.allowed(entry) ? [entry] : [];
    });
  }
}
