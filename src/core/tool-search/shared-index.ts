import { LRUCache } from "lru-cache";
import type { CatalogEntry, CatalogSnapshot } from "../catalog/index.js";
import { createSearchIndex, type SearchIndex } from "../search/index.js";
import { SHARED_INDEX_CACHE_SIZE, SHARED_INDEX_MAX_ENTRIES } from "./limits.js";

/** Search indexes shared by snapshots with the same fingerprint. */
export interface SearchIndexCache {
  /**
   * Ranked entries of `snapshot` for `query`, from a search index shared by every snapshot with the same
   * fingerprint: runs whose catalog did not change reuse the index instead of building it again. Equal
   * fingerprints mean the same ids in the same order with the same indexed text (names, labels,
   * descriptions, trusted schemas), so the ranking is the one a fresh index gives; each result is this
   * snapshot's own entry with that id (its `tool` is this run's definition).
   */
  search(snapshot: CatalogSnapshot, query: string, limit: number): CatalogEntry[];
}

/**
 * An index cache of its own, bounded by count (SHARED_INDEX_CACHE_SIZE indexes) and by entries held
 * (SHARED_INDEX_MAX_ENTRIES; a larger index is used but not kept), least recently used dropped first.
 */
export function createSearchIndexCache(): SearchIndexCache {
  /** Indexes by snapshot fingerprint. */
  const shared = new LRUCache<string, SearchIndex>({
    max: SHARED_INDEX_CACHE_SIZE,
    maxSize: SHARED_INDEX_MAX_ENTRIES,
    sizeCalculation: (index) => Math.max(1, index.size),
  });
  /** The index each snapshot uses, found once per snapshot. */
  const bySnapshot = new WeakMap<CatalogSnapshot, SearchIndex>();

  const indexFor = (snapshot: CatalogSnapshot): SearchIndex => {
    const known = bySnapshot.get(snapshot);
    if (known) return known;
    const key = snapshot.fingerprint;
    let index = shared.get(key);
    if (!index) {
      index = createSearchIndex(snapshot.entries);
      shared.set(key, index);
    }
    bySnapshot.set(snapshot, index);
    return index;
  };

  return {
    search(snapshot, query, limit) {
      const found = indexFor(snapshot).search(query, limit);
      return found.map((entry) => snapshot.get(entry.id) ?? entry);
    },
  };
}
