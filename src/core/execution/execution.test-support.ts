import { type CatalogEntry, type ToolDefinition, type ToolResult, toCatalogEntry } from "../catalog/index.js";
import { createExecutor, type Executor, type ExecutorOptions } from "./create-executor.js";
import type { ToolCallActivity } from "./types.js";

/** A promise with its resolve/reject handles, for driving concurrency by hand. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** Creates a Deferred. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise job and I/O callback run (a few macrotask turns). */
export async function settle(turns = 3): Promise<void> {
  for (let index = 0; index < turns; index += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** A text result with optional details. */
export function textResult(text: string, details?: unknown): ToolResult {
  return details === undefined
    ? { content: [{ type: "text", text }] }
    : { content: [{ type: "text", text }], details };
}

/** A catalog entry for a tool definition (fails the test when the definition cannot be cataloged). */
export function entryOf(tool: ToolDefinition): CatalogEntry {
  const entry = toCatalogEntry(tool);
  if (!entry) throw new Error(`test tool ${String(tool.name)} cannot be cataloged`);
  return entry;
}

/** A tool whose execute is `execute` (default: echo the arguments as details). */
export function makeTool(
  name: string,
  extra: Partial<Omit<ToolDefinition, "name">> = {},
): ToolDefinition & { calls: unknown[] } {
  const calls: unknown[] = [];
  const tool = {
    name,
    calls,
    execute: async (args: unknown): Promise<ToolResult> => textResult(`${name} ran`, { input: args }),
    ...extra,
  };
  const execute = tool.execute;
  tool.execute = (args, context) => {
    calls.push(args);
    return execute(args, context);
  };
  return tool;
}

/** An executor whose availability is a mutable set of entries, plus a log of finished calls. */
export function makeExecutor(
  entries: readonly CatalogEntry[],
  options: Omit<ExecutorOptions, "isAvailable"> = {},
): { executor: Executor; available: Set<CatalogEntry>; finished: ToolCallActivity[] } {
  const available = new Set(entries);
  const finished: ToolCallActivity[] = [];
  const userFinished = options.hooks?.onCallFinished;
  const executor = createExecutor({
    ...options,
    hooks: {
      ...options.hooks,
      onCallFinished(activity) {
        finished.push(activity);
        // Returned so an async sink's promise reaches the executor, as it would without this wrapper.
        return userFinished?.(activity);
      },
    },
    isAvailable: (entry) => available.has(entry),
  });
  return { executor, available, finished };
}

/** The rejection of `promise` (fails when it resolves). */
export async function rejection(
  promise: Promise<unknown>,
): Promise<Error & { code?: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a rejection, got a result");
}
