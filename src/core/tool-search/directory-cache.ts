import { LRUCache } from "lru-cache";
import type { CatalogSnapshot } from "../catalog/index.js";
import { type DirectoryOptions, renderDirectory } from "../directory/index.js";
import { DIRECTORY_CACHE_SIZE } from "./limits.js";

/** Rendered directories, by what they are made of. */
export interface DirectoryCache {
  /**
   * The rendered directory for a snapshot, reused while the snapshot's fingerprint, the mode, the budget and
   * the visible names are the same: identical catalogs give byte-identical prompts, so provider caches hit.
   */
  render(snapshot: CatalogSnapshot, options: Omit<DirectoryOptions, "entries">): string;
}

/** A directory cache of its own, holding at most `size` directories (least recently used dropped first). */
export function createDirectoryCache(size: number = DIRECTORY_CACHE_SIZE): DirectoryCache {
  const cache = new LRUCache<string, string>({ max: size });
  return {
    render(snapshot, options) {
      const visible = [...options.visibleNames].sort().join("\u0000");
      const key = `${snapshot.fingerprint}|${options.mode}|${options.budget}|${visible}`;
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const text = renderDirectory({ ...options, entries: snapshot.entries });
      cache.set(key, text);
      return text;
    },
  };
}
