import { LRUCache } from "lru-cache";
import { buildCatalog, type CatalogBuild } from "./build-catalog.js";
import { DEFAULT_CATALOG_CACHE_SIZE, MAX_CATALOG_CACHE_SIZE } from "./limits.js";
import { createSequenceMemo, type SequenceMemo } from "./sequence-memo.js";
import { toCatalogEntry } from "./to-catalog-entry.js";
import type { CatalogEntry, ToolDefinition } from "./types.js";

/**
 * Catalogs shared by every run handed the very same definitions in the same order: the entries, the
 * snapshot with its fingerprint, and through it the search index and the rendered directory (both keyed by
 * the fingerprint) are built once and reused. Definitions are recognised by identity: a source that changes
 * a tool hands over a new definition (a plugin registers its tools once; an MCP server's `list_changed`
 * lists new ones), so a changed tool set builds afresh. What a run changes on top (policy already applied
 * before, `restrict`, client tools) makes views or new snapshots, never edits a shared one.
 */
export interface CatalogCache {
  /**
   * The catalog of `tools`: remembered, or built and remembered (least recently used dropped first). With a
   * `version` (what the tools' sources say of them: equal versions mean the very same definitions) the
   * catalog is found by that version alone; without one, by the definitions' identity.
   */
  get(tools: readonly ToolDefinition[], version?: string): CatalogBuild;
  /** How many tool sets may keep what was derived from them (0: nothing is shared). */
  readonly capacity: number;
  /** How many tool sets hold a catalog now (for tests and `doctor`). */
  readonly size: number;
  /** Forgets every catalog and keeps at most `capacity` from now on (clamped to 0..MAX_CATALOG_CACHE_SIZE). */
  resize(capacity: number): void;
}

/** Clamps a configured `tools.catalogCacheSize` to 0..MAX_CATALOG_CACHE_SIZE. */
export function catalogCapacity(size: number): number {
  return Math.max(0, Math.min(MAX_CATALOG_CACHE_SIZE, Math.floor(size)));
}

/**
 * A catalog cache of its own holding at most `capacity` tool sets (default DEFAULT_CATALOG_CACHE_SIZE, from
 * `tools.catalogCacheSize`). Each definition's entry is kept while the definition lives: a set that changed
 * by a few tools rebuilds with the other entries as they were, so their fingerprint texts (cached per
 * entry) are not made again.
 */
export function createCatalogCache(capacity: number = DEFAULT_CATALOG_CACHE_SIZE): CatalogCache {
  let limit = catalogCapacity(capacity);
  let builds: SequenceMemo<CatalogBuild> = createSequenceMemo(limit);
  let byVersion = versionCache(limit);
  const entries = new WeakMap<ToolDefinition, CatalogEntry | null>();

  const rememberedEntry = (tool: ToolDefinition): CatalogEntry | undefined => {
    const known = entries.get(tool);
    if (known !== undefined) return known ?? undefined;
    const entry = toCatalogEntry(tool);
    entries.set(tool, entry ?? null);
    return entry;
  };

  return {
    get(tools, version) {
      const build = () => buildCatalog(tools, limit > 0 ? rememberedEntry : toCatalogEntry);
      if (version === undefined || byVersion === undefined) return builds.get(tools, build);
      let known = byVersion.get(version);
      if (known === undefined) {
        known = build();
        byVersion.set(version, known);
      }
      return known;
    },
    get capacity() {
      return limit;
    },
    get size() {
      return builds.size + (byVersion?.size ?? 0);
    },
    resize(next) {
      limit = catalogCapacity(next);
      builds = createSequenceMemo(limit);
      byVersion = versionCache(limit);
    },
  };
}

function versionCache(limit: number): LRUCache<string, CatalogBuild> | undefined {
  return limit > 0 ? new LRUCache({ max: limit }) : undefined;
}

/** The catalog cache of library callers that hand no caches of their own (`createToolSearch`). */
const libraryCatalogs = createCatalogCache();

/** The catalog of `tools` in the library's own cache (see CatalogCache). */
export function sharedCatalog(tools: readonly ToolDefinition[]): CatalogBuild {
  return libraryCatalogs.get(tools);
}

/** Resizes the library's own catalog cache (0 turns sharing off). */
export function setCatalogCacheSize(size: number): void {
  libraryCatalogs.resize(size);
}

/** The library's own catalog cache. */
export function libraryCatalogCache(): CatalogCache {
  return libraryCatalogs;
}

/** How many tool sets hold a catalog in the library's own cache now (for tests). */
export function sharedCatalogCount(): number {
  return libraryCatalogs.size;
}
