import type { CatalogSnapshot } from "../catalog/index.js";
import { type DirectoryOptions, renderDirectory } from "../directory/index.js";
import { DIRECTORY_CACHE_SIZE } from "./limits.js";

const cache = new Map<string, string>();

/**
 * The rendered directory for a snapshot, reused while the snapshot's fingerprint, the mode, the budget and
 * the visible names are the same: identical catalogs give byte-identical prompts, so provider caches hit.
 */
export function cachedDirectory(
  snapshot: CatalogSnapshot,
  options: Omit<DirectoryOptions, "entries">,
): string {
  const visible = [...options.visibleNames].sort().join("\u0000");
  const key = `${snapshot.fingerprint}|${options.mode}|${options.budget}|${visible}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const text = renderDirectory({ ...options, entries: snapshot.entries });
  cache.set(key, text);
  if (cache.size > DIRECTORY_CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return text;
}
