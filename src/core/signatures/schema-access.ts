import { safeRead } from "../../shared/schema/index.js";

/** A list read from an untrusted array: the first items (at most the cap) and the declared length. */
export interface ListRead {
  readonly items: readonly unknown[];
  readonly length: number;
}

/**
 * Reads up to `cap` items of an array without trusting it; `undefined` when `value` is not an array.
 * Throwing getters read as `undefined`; a non-numeric or absurd `length` reads as what can be read.
 */
export function readList(value: unknown, cap: number): ListRead | undefined {
  let isArray: boolean;
  try {
    isArray = Array.isArray(value);
  } catch {
    return undefined;
  }
  if (!isArray) return undefined;
  const declared = safeRead(value, "length");
  const length =
    typeof declared === "number" && Number.isSafeInteger(declared) && declared >= 0 ? declared : 0;
  const items: unknown[] = [];
  for (let index = 0; index < Math.min(length, cap); index += 1) items.push(safeRead(value, String(index)));
  return { items, length };
}

/** Own enumerable string keys of an object, or `undefined` when listing them throws. */
export function ownKeys(value: object): string[] | undefined {
  try {
    return Object.keys(value);
  } catch {
    return undefined;
  }
}
