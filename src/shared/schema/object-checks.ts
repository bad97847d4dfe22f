/** Shape checks and property reads for objects from untrusted input; none of them ever throws. */

/**
 * True for any object that is not `null` and not an array (class instances and null-prototype objects
 * included): the shape check for a JSON object read from untrusted input. Never throws: a revoked Proxy, which
 * `Array.isArray` throws on, is false.
 */
export function isObjectRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  try {
    return !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * True for a plain data object: its prototype is `Object.prototype` or `null` (`{}`, `JSON.parse` output,
 * `Object.create(null)`). False for arrays, class instances, `Map`s and the rest, and for a Proxy whose traps
 * throw: it never throws. A Proxy that forwards to a plain object counts as plain (use `util.types.isProxy` to
 * refuse Proxies).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  try {
    if (Array.isArray(value)) return false;
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  } catch {
    return false;
  }
}

/** Reads one property without trusting the object: throwing getters and revoked Proxies yield `undefined`. */
export function safeRead(value: unknown, key: string): unknown {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** Reads a string property; anything that is not a string (or throws) gives `fallback`. */
export function safeReadString(value: unknown, key: string, fallback = ""): string {
  const read = safeRead(value, key);
  return typeof read === "string" ? read : fallback;
}
