import { createHash } from "node:crypto";
import { schemaKey } from "../../shared/schema/index.js";
import { fitMetadataBudget } from "./fit-metadata-budget.js";
import type { CatalogEntry } from "./types.js";

/** An immutable, id-ordered entry list with a content fingerprint. */
export interface CatalogSnapshot {
  /** Unique by id, ordered by id (code units). */
  readonly entries: readonly CatalogEntry[];
  /** 64 lowercase hex characters; equal for equal tool sets. */
  readonly fingerprint: string;
  /** The entry with exactly this id. */
  get(id: string): CatalogEntry | undefined;
  /** Every entry with exactly this name, in id order. */
  withName(name: string): readonly CatalogEntry[];
  /** True when `entry` is the very entry this snapshot holds under its id. */
  holds(entry: CatalogEntry): boolean;
}

/**
 * Makes a snapshot from entries: a later duplicate id replaces an earlier one; the result is ordered by id;
 * labels and descriptions are kept whole within the catalog-wide metadata budget (`fitMetadataBudget`).
 * The fingerprint covers what the prompt and the index are built from, plus trusted schemas by content;
 * untrusted schemas are never read, so they never contribute.
 */
export function createCatalogSnapshot(entries: readonly CatalogEntry[]): CatalogSnapshot {
  const byId = new Map<string, CatalogEntry>();
  for (const entry of entries) {
    byId.delete(entry.id);
    byId.set(entry.id, entry);
  }
  const ordered = fitMetadataBudget(
    [...byId.values()].sort((left, right) => compareCodeUnits(left.id, right.id)),
  );
  const byName = new Map<string, CatalogEntry[]>();
  for (const entry of ordered) {
    const list = byName.get(entry.name);
    if (list) list.push(entry);
    else byName.set(entry.name, [entry]);
  }
  const fingerprint = fingerprintEntries(ordered);
  return Object.freeze({
    entries: Object.freeze(ordered),
    fingerprint,
    get: (id: string) => byId.get(id),
    withName: (name: string) => byName.get(name) ?? [],
    holds: (entry: CatalogEntry) => byId.get(entry.id) === entry,
  });
}

/** Orders strings by UTF-16 code units, independent of locale. */
export function compareCodeUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Each entry's part of the fingerprint, made once per entry (a catalog rebuilt around it reuses it). */
const entryTexts = new WeakMap<CatalogEntry, string>();

function entryText(entry: CatalogEntry): string {
  let text = entryTexts.get(entry);
  if (text === undefined) {
    const parts = [entry.id, entry.label, entry.description, entry.executionMode + entry.resultSource];
    parts.push(entry.pinned ? "pinned" : "");
    if (entry.source === "native") parts.push(schemaText(entry.parameters), schemaText(entry.outputSchema));
    text = parts.join("\u0000");
    entryTexts.set(entry, text);
  }
  return text;
}

function fingerprintEntries(entries: readonly CatalogEntry[]): string {
  // One hash update over the joined parts: thousands of small updates cost more than the hashing itself.
  const parts: string[] = [];
  for (const entry of entries) parts.push(entryText(entry));
  return createHash("sha256").update(parts.join("\u0000\u0001\u0000")).digest("hex");
}

/**
 * A trusted schema's content as text for the fingerprint: plain JSON (native `JSON.stringify`, fast) or, for
 * what JSON cannot express or refuses (cycles, BigInt, a throwing getter), the canonical `schemaKey`. Key
 * order counts here; two orders of one schema only make the fingerprint differ, which costs a re-render.
 */
function schemaText(schema: unknown): string {
  if (schema === undefined) return "";
  try {
    return JSON.stringify(schema) ?? schemaKey(schema);
  } catch {
    return schemaKey(schema);
  }
}
