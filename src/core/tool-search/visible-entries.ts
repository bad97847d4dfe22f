import { LRUCache } from "lru-cache";
import { type CatalogEntry, type CatalogSnapshot, visibleWhileCataloged } from "../catalog/index.js";
import { VISIBLE_SETS_PER_SNAPSHOT } from "./limits.js";

/**
 * Per snapshot: the entries left visible, by the host's direct names (and whether client tools show). Held
 * beside the snapshot (weakly, by the immutable snapshot object) because the lists are made of that
 * snapshot's own entries; it goes with the snapshot.
 */
const cache = new WeakMap<CatalogSnapshot, LRUCache<string, readonly CatalogEntry[]>>();

/**
 * The entries of `snapshot` that stay in the model's tool list while cataloged (`visibleWhileCataloged`),
 * followed by every client entry when `withClientTools` (directory mode declares them) but those the client
 * asked to defer. Found once per
 * snapshot and set of names, so runs sharing a catalog do not walk it again; the list is frozen.
 */
export function visibleEntries(
  snapshot: CatalogSnapshot,
  directToolNames: ReadonlySet<string>,
  withClientTools: boolean,
): readonly CatalogEntry[] {
  const key = `${withClientTools ? "+client" : "-client"}\u0000${[...directToolNames].sort().join("\u0000")}`;
  let known = cache.get(snapshot);
  const hit = known?.get(key);
  if (hit) return hit;
  const visible = visibleWhileCataloged(snapshot, directToolNames);
  if (withClientTools)
    for (const entry of snapshot.entries)
      if (entry.source === "client" && !entry.deferred) visible.push(entry);
  if (!known) {
    known = new LRUCache({ max: VISIBLE_SETS_PER_SNAPSHOT });
    cache.set(snapshot, known);
  }
  const frozen = Object.freeze(visible);
  known.set(key, frozen);
  return frozen;
}
