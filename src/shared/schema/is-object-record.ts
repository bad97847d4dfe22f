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
