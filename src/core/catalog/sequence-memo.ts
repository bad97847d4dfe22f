import { LRUCache } from "lru-cache";

/**
 * Values remembered per sequence of objects, recognised by identity: the same objects in the same order find
 * the value computed for them before. Used to reuse what a run derives from its tools (the policy's verdicts,
 * the catalog) when a later run is handed the very same definitions. Identity is the whole key: a source
 * that changes a tool hands over a new definition object, and an unchanged one is never read again.
 */
export interface SequenceMemo<T> {
  /**
   * The value for `items`: remembered, or `compute()`d and remembered (least recently used dropped first)
   * unless `keep` says that value must not be reused.
   */
  get(items: readonly object[], compute: () => T, keep?: (value: T) => boolean): T;
  /** How many sequences are remembered now. */
  readonly size: number;
  /** Forgets every sequence. */
  clear(): void;
}

type Remembered<T> = { items: readonly object[]; value: T };

function sameItems(left: readonly object[], right: readonly object[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index += 1) if (left[index] !== right[index]) return false;
  return true;
}

/**
 * A memo of at most `capacity` sequences (0 remembers nothing). The very array seen before is found without
 * a pass over it; an equal sequence in a new array costs one pass to hash and one to compare. A remembered
 * value holds its sequence's objects until it is dropped.
 */
export function createSequenceMemo<T>(capacity: number): SequenceMemo<T> {
  const limit = Math.max(0, Math.floor(capacity));
  const byKey = limit > 0 ? new LRUCache<string, Remembered<T>>({ max: limit }) : undefined;
  let byArray = new WeakMap<readonly object[], Remembered<T>>();
  /** A number per object, handed out on first sight; only their sequence is hashed. */
  const serials = new WeakMap<object, number>();
  let nextSerial = 1;

  const serialOf = (item: object): number => {
    let serial = serials.get(item);
    if (serial === undefined) {
      serial = nextSerial;
      nextSerial += 1;
      serials.set(item, serial);
    }
    return serial;
  };

  /** Two 32-bit FNV-1a style hashes of the serials and the length, as one key; a hit is then checked item by item. */
  const sequenceKey = (items: readonly object[]): string => {
    let first = 0x811c9dc5;
    let second = 0x01000193;
    for (const item of items) {
      const serial = serialOf(item);
      first = Math.imul(first ^ serial, 0x01000193);
      second = Math.imul(second ^ (serial * 31 + 7), 0x5bd1e995);
    }
    return `${items.length}:${first >>> 0}:${second >>> 0}`;
  };

  return {
    get(items, compute, keep) {
      if (byKey === undefined) return compute();
      const known = byArray.get(items);
      if (known && sameItems(known.items, items)) return known.value;
      const key = sequenceKey(items);
      const found = byKey.get(key);
      if (found && sameItems(found.items, items)) {
        byArray.set(items, found);
        return found.value;
      }
      const value = compute();
      if (keep && !keep(value)) return value;
      const remembered = { items: [...items], value };
      byKey.set(key, remembered);
      byArray.set(items, remembered);
      return remembered.value;
    },
    get size() {
      return byKey?.size ?? 0;
    },
    clear() {
      byKey?.clear();
      byArray = new WeakMap();
    },
  };
}
