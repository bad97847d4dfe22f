import { safeRead } from "./object-checks.js";

/** Most schema nodes read when keying a schema; larger schemas are keyed by their first nodes plus a marker. */
export const MAX_SCHEMA_KEY_NODES = 20_000;
/**
 * Deepest level read when keying a schema; deeper content is keyed by a marker. Far above what any consumer
 * accepts (a validator refuses schemas nested deeper than 256 levels), and low enough that keying a hostile
 * 10,000-level schema never runs out of stack, in interpreted frames too.
 */
export const MAX_SCHEMA_KEY_DEPTH = 1_000;

/**
 * A deterministic text for a trusted schema's content: object keys sorted, cycles and unreadable values
 * marked instead of followed. Two schemas with the same content give the same key, so validators and
 * fingerprints can be cached by content and recomputed after an in-place change.
 */
export function schemaKey(schema: unknown): string {
  const seen = new Set<object>();
  let budget = MAX_SCHEMA_KEY_NODES;
  const visit = (value: unknown, depth = 0): string => {
    budget -= 1;
    if (budget < 0) return '"[too-large]"';
    if (depth > MAX_SCHEMA_KEY_DEPTH) return '"[too-deep]"';
    if (value === null || typeof value === "boolean" || typeof value === "number") return String(value);
    if (typeof value === "string") return JSON.stringify(value);
    if (typeof value !== "object") return `"[${typeof value}]"`;
    if (seen.has(value)) return '"[cycle]"';
    seen.add(value);
    try {
      if (isArraySafe(value)) {
        const parts: string[] = [];
        const length = Number(safeRead(value, "length")) || 0;
        for (let index = 0; index < length && budget > 0; index += 1)
          parts.push(visit(safeRead(value, String(index)), depth + 1));
        return `[${parts.join(",")}]`;
      }
      let keys: string[];
      try {
        keys = Object.keys(value).sort();
      } catch {
        return '"[unreadable]"';
      }
      const parts: string[] = [];
      for (const key of keys) {
        if (budget <= 0) break;
        parts.push(`${JSON.stringify(key)}:${visit(safeRead(value, key), depth + 1)}`);
      }
      return `{${parts.join(",")}}`;
    } finally {
      seen.delete(value);
    }
  };
  return visit(schema);
}

function isArraySafe(value: object): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false; // a revoked Proxy: keyed as unreadable by the object branch
  }
}
