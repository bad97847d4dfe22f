import { type CatalogEntry, type ToolDefinition, toCatalogEntry } from "../catalog/index.js";

/** Options for a test tool: anything a `ToolDefinition` may carry. */
export type TestTool = Partial<Omit<ToolDefinition, "execute">> & { name: string };

/** A real catalog entry made the way the catalog makes it (a plugin tool unless `origin` says otherwise). */
export function entryOf(tool: TestTool): CatalogEntry {
  const definition = {
    origin: { kind: "plugin", owner: "test" },
    ...tool,
    execute: async () => ({ content: [] }),
  } as ToolDefinition;
  const entry = toCatalogEntry(definition);
  if (!entry) throw new Error(`test tool ${tool.name} was refused`);
  return entry;
}

/** Entries for several tools at once. */
export function entriesOf(...tools: TestTool[]): CatalogEntry[] {
  return tools.map(entryOf);
}

/** Names of ranked entries, for compact assertions. */
export function namesOf(entries: readonly CatalogEntry[]): string[] {
  return entries.map((entry) => entry.name);
}

/**
 * A schema Proxy that records every trap call (get, has, ownKeys, getPrototypeOf, ...) in `log`: proves that
 * code never touched a schema it must treat as opaque.
 */
export function recordingSchema(
  log: string[],
  target: object = { type: "object", properties: {} },
): Record<string, unknown> {
  return new Proxy(target as Record<string, unknown>, {
    get: (object, key) => {
      log.push(`get ${String(key)}`);
      return Reflect.get(object, key);
    },
    has: (object, key) => {
      log.push(`has ${String(key)}`);
      return Reflect.has(object, key);
    },
    ownKeys: (object) => {
      log.push("ownKeys");
      return Reflect.ownKeys(object);
    },
    getOwnPropertyDescriptor: (object, key) => {
      log.push(`getOwnPropertyDescriptor ${String(key)}`);
      return Reflect.getOwnPropertyDescriptor(object, key);
    },
    getPrototypeOf: (object) => {
      log.push("getPrototypeOf");
      return Reflect.getPrototypeOf(object);
    },
  });
}
