import type { CatalogEntry, ToolDefinition } from "../catalog/index.js";
import { toErrorResult } from "../controls/index.js";
import type { CallSurface, Executor } from "../execution/index.js";

/**
 * A model-facing definition for an entry whose calls still pass through the run's executor pipeline
 * (scheduling, policy, hooks, approval, validation), so a direct call is never a way around them.
 */
export function wrapForModel(entry: CatalogEntry, executor: Executor, surface: CallSurface): ToolDefinition {
  const wrapped: ToolDefinition = {
    name: entry.name,
    description: entry.description,
    origin: originOf(entry),
    executionMode: entry.executionMode,
    execute: async (args, context) => {
      try {
        return await executor.execute(entry, args, {
          surface,
          ...(context?.toolCallId === undefined ? {} : { toolCallId: context.toolCallId }),
          ...(context?.signal === undefined ? {} : { signal: context.signal }),
        });
      } catch (error) {
        return toErrorResult(error);
      }
    },
  };
  if (entry.label) wrapped.label = entry.label;
  if (entry.parameters !== undefined)
    wrapped.parameters = entry.parameters as NonNullable<ToolDefinition["parameters"]>;
  if (entry.source === "native" && entry.outputSchema !== undefined) {
    wrapped.outputSchema = entry.outputSchema as NonNullable<ToolDefinition["outputSchema"]>;
  }
  return wrapped;
}

function originOf(entry: CatalogEntry): NonNullable<ToolDefinition["origin"]> {
  if (entry.source === "mcp") return { kind: "mcp", owner: entry.owner };
  if (entry.source === "client") return { kind: "client", owner: "client" };
  return entry.fromCore ? { kind: "core", owner: "core" } : { kind: "plugin", owner: entry.owner };
}
