import { safeRead } from "../../shared/schema/index.js";
import type { CatalogEntry, ToolDefinition } from "../catalog/index.js";
import { toErrorResult } from "../controls/index.js";
import type { CallSurface, Executor } from "../execution/index.js";

/** The catalog entry behind each model-facing definition made here (its declared name may differ). */
const entries = new WeakMap<ToolDefinition, CatalogEntry>();

/**
 * The catalog entry a model-facing definition from `modelTools()` stands for, or undefined for one not made
 * by Tool Search (a control, a tool returned as it is): a pinned MCP tool is declared as `<server>__<tool>`
 * but is still `mcp:<server>:<tool>` in logs and on the effective surface.
 */
export function modelToolEntry(tool: ToolDefinition): CatalogEntry | undefined {
  return entries.get(tool);
}

/**
 * A model-facing definition for an entry whose calls still pass through the run's executor pipeline
 * (scheduling, policy, hooks, approval, validation), so a direct call is never a way around them.
 */
export function wrapForModel(entry: CatalogEntry, executor: Executor, surface: CallSurface): ToolDefinition {
  const wrapped: ToolDefinition = {
    name: declaredName(entry),
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
  entries.set(wrapped, entry);
  return wrapped;
}

/**
 * The name a visible entry is declared under: its own, except a pinned MCP tool, which is declared as
 * `<server>__<tool>` (its definition's `directName`) like every directly declared MCP tool, so two servers'
 * tools, or an MCP and a native tool, never share a declared name.
 */
function declaredName(entry: CatalogEntry): string {
  if (entry.source !== "mcp" || !entry.pinned) return entry.name;
  const directName = safeRead(entry.tool, "directName");
  return typeof directName === "string" && directName.length > 0
    ? directName
    : `${entry.owner}__${entry.name}`;
}

function originOf(entry: CatalogEntry): NonNullable<ToolDefinition["origin"]> {
  if (entry.source === "mcp") return { kind: "mcp", owner: entry.owner };
  if (entry.source === "client") return { kind: "client", owner: entry.owner };
  return entry.fromCore ? { kind: "core", owner: "core" } : { kind: "plugin", owner: entry.owner };
}
