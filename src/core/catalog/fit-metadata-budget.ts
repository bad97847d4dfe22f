import { cutText } from "../../shared/text/index.js";
import { MAX_CATALOG_METADATA_CHARS } from "./limits.js";
import type { CatalogEntry } from "./types.js";

/**
 * Keeps the labels and descriptions of a catalog within `budget` characters in total. When they already fit
 * (every ordinary catalog), the entries come back unchanged. Otherwise every field longer than one common cap
 * is cut to it (with "..."), the cap being the largest that makes the total fit, so a few hostile fields
 * pay for the overflow and ordinary fields stay whole. Cut entries are new objects; the result does not
 * depend on the order of the entries.
 */
export function fitMetadataBudget(
  entries: readonly CatalogEntry[],
  budget: number = MAX_CATALOG_METADATA_CHARS,
): CatalogEntry[] {
  let total = 0;
  const lengths: number[] = [];
  for (const entry of entries) {
    total += entry.label.length + entry.description.length;
    lengths.push(entry.label.length, entry.description.length);
  }
  if (total <= budget) return [...entries];
  const cap = commonCap(lengths, budget);
  return entries.map((entry) => {
    if (entry.label.length <= cap && entry.description.length <= cap) return entry;
    // The same cut of the same entry is the same object, so what is cached per entry (its fingerprint
    // text) survives a rebuild of a large catalog that changed elsewhere.
    const known = cutCopies.get(entry);
    if (known?.cap === cap) return known.copy;
    const copy = { ...entry, label: cutText(entry.label, cap), description: cutText(entry.description, cap) };
    cutCopies.set(entry, { cap, copy });
    return copy;
  });
}

/** The last cut made of each entry, with its cap. */
const cutCopies = new WeakMap<CatalogEntry, { cap: number; copy: CatalogEntry }>();

/** The largest cap c with sum(min(length, c)) <= budget. */
function commonCap(lengths: readonly number[], budget: number): number {
  const sorted = [...lengths].sort((left, right) => left - right);
  let used = 0;
  for (let index = 0; index < sorted.length; index += 1) {
    const length = sorted[index] ?? 0;
    const remaining = sorted.length - index;
    if (used + length * remaining > budget) return Math.floor((budget - used) / remaining);
    used += length;
  }
  return sorted.at(-1) ?? 0;
}
