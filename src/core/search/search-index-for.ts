import type { CatalogSnapshot } from "../catalog/index.js";
import { createSearchIndex, type SearchIndex } from "./search-index.js";

const indexes = new WeakMap<CatalogSnapshot, SearchIndex>();

/** The index for a snapshot, cached per snapshot object (WeakMap) so the same snapshot reuses it; a new snapshot gets a new index. */
export function searchIndexFor(snapshot: CatalogSnapshot): SearchIndex {
  let index = indexes.get(snapshot);
  if (!index) {
    index = createSearchIndex(snapshot.entries);
    indexes.set(snapshot, index);
  }
  return index;
}
