import type { CatalogEntry, CatalogSnapshot } from "../catalog/index.js";
import { createSearchIndex, type SearchIndex } from "../search/index.js";
import { SHARED_INDEX_CACHE_SIZE, SHARED_INDEX_MAX_ENTRIES } from "./limits.js";

/** Indexes by snapshot fingerprint, least recently used first. */
const shared = new Map<string, SearchIndex>();
/** The index each snapshot uses, found once per snapshot. */
const bySnapshot = new WeakMap<CatalogSnapshot, SearchIndex>();
let heldEntries = 0;

/**
 * Ranked entries of `snapshot` for `query`, from a search index shared by every snapshot with the same
 * fingerprint: runs whose catalog did not change reuse the index instead of building it again. Equal
 * fingerprints mean the same ids in the same order with the same indexed text (names, labels, descriptions,
 * trusted schemas), so the ranking is the one a fresh index gives; each result is this snapshot's own entry
 * with that id (its `tool` is this run's definition). The cache is bounded by count and by entries held.
 */
export function searchShared(snapshot: CatalogSnapshot, query: string, limit: number): CatalogEntry[] {
  const found = indexFor(snapshot).search(query, limit);
  return found.map((entry) => snapshot.get(entry.id) ?? entry);
}

function indexFor(snapshot: CatalogSnapshot): SearchIndex {
  const known = bySnapshot.get(snapshot);
  if (known) return known;
  const key = snapshot.fingerprint;
  let index = shared.get(key);
  if (index) {
    shared.delete(key);
    shared.set(key, index);
  } else {
    index = createSearchIndex(snapshot.entries);
    keep(key, index);
  }
  bySnapshot.set(snapshot, index);
  return index;
}

function keep(key: string, index: SearchIndex): void {
  if (index.size > SHARED_INDEX_MAX_ENTRIES) return;
  shared.set(key, index);
  heldEntries += index.size;
  while (shared.size > SHARED_INDEX_CACHE_SIZE || heldEntries > SHARED_INDEX_MAX_ENTRIES) {
    const oldest = shared.entries().next().value;
    if (!oldest) break;
    shared.delete(oldest[0]);
    heldEntries -= oldest[1].size;
  }
}
