import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from "./limits.js";

/** Why a schema cannot be copied for compilation; the message completes "the schema ...". */
export class UncloneableSchema extends Error {}

/**
 * A plain JSON copy of a trusted schema, made before compiling so the compiled validator never depends on
 * the caller's object (ajv caches by object identity; in-place edits must not reuse a stale validator).
 * Throws UncloneableSchema for cycles, non-JSON values (functions, symbols, BigInt, non-finite numbers),
 * unreadable properties, or a schema deeper than MAX_SCHEMA_DEPTH or larger than MAX_SCHEMA_NODES.
 * `undefined` object members are dropped, as JSON does; `__proto__` keys stay own data properties.
 */
export function cloneSchema(schema: unknown): unknown {
  const ancestors = new Set<object>();
  let nodes = 0;
  const copy = (value: unknown, depth: number): unknown => {
    nodes += 1;
    if (nodes > MAX_SCHEMA_NODES) throw new UncloneableSchema(`has more than ${MAX_SCHEMA_NODES} nodes`);
    if (depth > MAX_SCHEMA_DEPTH)
      throw new UncloneableSchema(`is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    if (value === null || typeof value === "boolean" || typeof value === "string") return value;
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new UncloneableSchema("contains a non-finite number");
      return value;
    }
    if (typeof value !== "object") throw new UncloneableSchema(`contains a non-JSON value (${typeof value})`);
    if (ancestors.has(value)) throw new UncloneableSchema("contains a cycle");
    ancestors.add(value);
    try {
      return Array.isArray(value) ? copyArray(value, depth) : copyObject(value, depth);
    } finally {
      ancestors.delete(value);
    }
  };
  const copyArray = (value: readonly unknown[], depth: number): unknown[] => {
    const length = value.length;
    const out: unknown[] = [];
    for (let index = 0; index < length; index += 1) {
      const item = value[index];
      out.push(item === undefined ? null : copy(item, depth + 1));
    }
    return out;
  };
  const copyObject = (value: object, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined) continue;
      Object.defineProperty(out, key, {
        value: copy(member, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  try {
    return copy(schema, 0);
  } catch (error) {
    if (error instanceof UncloneableSchema) throw error;
    throw new UncloneableSchema("could not be read");
  }
}
