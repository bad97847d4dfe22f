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
