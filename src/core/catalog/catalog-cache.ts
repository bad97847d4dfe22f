import { buildCatalog, type CatalogBuild } from "./build-catalog.js";
import { DEFAULT_CATALOG_CACHE_SIZE, MAX_CATALOG_CACHE_SIZE } from "./limits.js";
import { createSequenceMemo } from "./sequence-memo.js";
import { toCatalogEntry } from "./to-catalog-entry.js";
import type { CatalogEntry, ToolDefinition } from "./types.js";

let capacity = DEFAULT_CATALOG_CACHE_SIZE;
const builds = createSequenceMemo<CatalogBuild>(() => capacity);
/**
 * Each definition's entry, kept while the definition lives: a set that changed by a few tools rebuilds
 * with the other entries as they were, so their fingerprint texts (cached per entry) are not made again.
 */
const entries = new WeakMap<ToolDefinition, CatalogEntry | null>();

function rememberedEntry(tool: ToolDefinition): CatalogEntry | undefined {
  const known = entries.get(tool);
  if (known !== undefined) return known ?? undefined;
  const entry = toCatalogEntry(tool);
  entries.set(tool, entry ?? null);
  return entry;
}

/**
 * The catalog of `tools`, shared by every run handed the very same definitions in the same order: the
 * entries, the snapshot with its fingerprint, and through it the search index and the rendered directory
 * (both keyed by the snapshot) are built once and reused. Definitions are recognised by identity: a source
 * that changes a tool hands over a new definition (a plugin registers its tools once; an MCP server's
 * `list_changed` lists new ones), so a changed tool set builds afresh. What a run changes on top (policy
 * already applied before, `restrict`, client tools) makes views or new snapshots, never edits a shared one.
 */
export function sharedCatalog(tools: readonly ToolDefinition[]): CatalogBuild {
  return builds.get(tools, () => buildCatalog(tools, capacity > 0 ? rememberedEntry : toCatalogEntry));
}

/**
 * How many tool sets keep their catalog (least recently used dropped first; 0 turns sharing off). Set from
 * `tools.catalogCacheSize`; default DEFAULT_CATALOG_CACHE_SIZE.
 */
export function setCatalogCacheSize(size: number): void {
  capacity = Math.max(0, Math.min(MAX_CATALOG_CACHE_SIZE, Math.floor(size)));
  if (capacity === 0) builds.clear();
}

/** How many tool sets may keep what was derived from them (the catalog here, the policy's verdicts beside it). */
export function catalogCacheSize(): number {
  return capacity;
}

/** How many tool sets hold a shared catalog now (for tests and `doctor`). */
export function sharedCatalogCount(): number {
  return builds.size;
}
