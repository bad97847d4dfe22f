import { ToolsiftError } from "../../shared/errors/index.js";
import {
  type CatalogEntry,
  type CatalogSnapshot,
  createCatalogSnapshot,
  type ToolDefinition,
  type ToolResult,
  toCatalogEntry,
} from "../catalog/index.js";
import { createExecutor, type ExecutionHooks } from "../execution/index.js";
import { createSearchIndex, type SearchIndex } from "../search/index.js";
import type { ControlRuntime, SkillReference } from "./types.js";

/** Options of a test runtime. */
export interface TestRuntimeOptions {
  /** Default 5. */
  searchDefaultLimit?: number;
  /** Default 20. */
  maxSearchLimit?: number;
  /** Direct-only names of this turn. Default none. */
  directOnlyNames?: readonly string[];
  /** Default none. */
  skills?: readonly SkillReference[];
  /** Executor hooks. Default none. */
  hooks?: ExecutionHooks;
}

/** A real runtime over real parts (snapshot, search index, executor), plus what tests inspect. */
export interface TestRuntime extends ControlRuntime {
  readonly counts: { search: number; describe: number; call: number };
  /** Every `search(query, limit)` the controls made, in order. */
  readonly searches: Array<{ query: string; limit: number }>;
  /** Every `execute` the controls made, in order. */
  readonly executions: Array<{ entry: CatalogEntry; args: unknown }>;
  close(): void;
}

/** Builds a runtime from tools with createCatalogSnapshot + toCatalogEntry + createSearchIndex + createExecutor. */
export function createTestRuntime(
  tools: readonly ToolDefinition[],
  options: TestRuntimeOptions = {},
): TestRuntime {
  const entries = tools.flatMap((tool) => {
    const entry = toCatalogEntry(tool);
    return entry ? [entry] : [];
  });
  const snapshot: CatalogSnapshot = createCatalogSnapshot(entries);
  let closed = false;
  const executor = createExecutor({
    isAvailable: (entry) => !closed && snapshot.holds(entry),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });
  const current = (): CatalogSnapshot => {
    if (closed) throw new ToolsiftError("CATALOG_CLOSED", "Tool Search catalog is unavailable for this run.");
    return snapshot;
  };
  let index: SearchIndex | undefined;
  const counts = { search: 0, describe: 0, call: 0 };
  const searches: Array<{ query: string; limit: number }> = [];
  const executions: Array<{ entry: CatalogEntry; args: unknown }> = [];
  const directOnly = new Set(options.directOnlyNames ?? []);
  return {
    counts,
    searches,
    executions,
    snapshot: current,
    limits: () => ({
      searchDefaultLimit: options.searchDefaultLimit ?? 5,
      maxSearchLimit: options.maxSearchLimit ?? 20,
    }),
    search: (query, limit) => {
      searches.push({ query, limit });
      const entries = current().entries;
      index ??= createSearchIndex(entries);
      return index.search(query, limit);
    },
    directOnlyNames: () => directOnly,
    skills: () => options.skills ?? [],
    execute: (entry, args, context) => {
      executions.push({ entry, args });
      return executor.execute(entry, args, { ...context, surface: "control" });
    },
    count: (kind, amount = 1) => {
      counts[kind] += amount;
    },
    close: () => {
      closed = true;
      executor.close();
    },
  };
}

/** A tool that echoes its arguments as text and details. */
export function echoTool(name: string, extra: Partial<Omit<ToolDefinition, "name">> = {}): ToolDefinition {
  return {
    name,
    description: `${name} tool`,
    execute: async (args): Promise<ToolResult> => ({
      content: [{ type: "text", text: `${name} ${JSON.stringify(args)}` }],
      details: { tool: name, args },
    }),
    ...extra,
  };
}

/** A Proxy over `{ type: "object" }` that records every trap it sees (to prove a schema was not walked). */
export function recordingSchema(): { schema: Record<string, unknown>; reads: string[] } {
  const reads: string[] = [];
  const schema = new Proxy({ type: "object" } as Record<string, unknown>, {
    get(target, key, receiver) {
      reads.push(`get:${String(key)}`);
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      reads.push(`has:${String(key)}`);
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      reads.push("ownKeys");
      return Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor(target, key) {
      reads.push(`descriptor:${String(key)}`);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
  return { schema, reads };
}
