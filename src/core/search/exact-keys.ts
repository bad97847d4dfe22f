import type { CatalogEntry } from "../catalog/index.js";
import { FNV_OFFSET, FNV_PRIME, fnvHash } from "./fnv-hash.js";

/** The documents of the three exact tiers for one query, each list in document order without repeats. */
export type ExactMatches = {
  /** Documents whose id is the query. */
  readonly byId: readonly number[];
  /** Documents whose name is the query. */
  readonly byName: readonly number[];
  /** Documents whose name or id equals the query case-insensitively (`toLowerCase`). */
  readonly byFoldedKey: readonly number[];
};

const EMPTY_SLOT = -1;
/** Key kinds, stored in the low bit of a slot: `doc * 2 + kind`. */
const NAME_KEY = 0;
const ID_KEY = 1;

/**
 * The names and ids of a catalog's entries, hashed case-insensitively into one open-addressing table of
 * typed arrays: two keys a document, no Map entry and (for ASCII keys) no string allocated at build.
 */
export class ExactKeys {
  private readonly documents: readonly CatalogEntry[];
  private readonly slots: Int32Array;
  private readonly hashes: Int32Array;

  constructor(documents: readonly CatalogEntry[]) {
    this.documents = documents;
    let capacity = 16;
    while (capacity < documents.length * 4) capacity *= 2;
    this.slots = new Int32Array(capacity).fill(EMPTY_SLOT);
    this.hashes = new Int32Array(capacity);
    for (let doc = 0; doc < documents.length; doc += 1) {
      const { name, id } = documents[doc]!;
      this.insert(doc * 2 + NAME_KEY, foldedHash(name));
      this.insert(doc * 2 + ID_KEY, foldedHash(id));
    }
  }

  /** The exact-tier documents for `query` (already trimmed). */
  find(query: string): ExactMatches {
    const byId: number[] = [];
    const byName: number[] = [];
    const byFoldedKey: number[] = [];
    const folded = query.toLowerCase();
    const hash = foldedHash(folded);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; this.slots[slot] !== EMPTY_SLOT; slot = (slot + 1) & mask) {
      if (this.hashes[slot] !== hash) continue;
      const value = this.slots[slot]!;
      const doc = value >>> 1;
      const entry = this.documents[doc]!;
      const key = (value & 1) === ID_KEY ? entry.id : entry.name;
      if (key.toLowerCase() !== folded) continue;
      if (key === query) addOnce((value & 1) === ID_KEY ? byId : byName, doc);
      addOnce(byFoldedKey, doc);
    }
    return { byId: sorted(byId), byName: sorted(byName), byFoldedKey: sorted(byFoldedKey) };
  }

  private insert(value: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & mask;
    this.slots[slot] = value;
    this.hashes[slot] = hash;
  }
}

/** FNV-1a over the key lowercased; ASCII keys are folded in place, others through `toLowerCase`. */
function foldedHash(key: string): number {
  let hash = FNV_OFFSET;
  for (let index = 0; index < key.length; index += 1) {
    let code = key.charCodeAt(index);
    if (code >= 128) return fnvHash(key.toLowerCase());
    if (code >= 65 && code <= 90) code += 32;
    hash = Math.imul(hash ^ code, FNV_PRIME);
  }
  return hash;
}

function addOnce(list: number[], doc: number): void {
  if (!list.includes(doc)) list.push(doc);
}

function sorted(list: number[]): number[] {
  return list.length > 1 ? list.sort((left, right) => left - right) : list;
}
