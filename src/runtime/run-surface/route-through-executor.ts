import {
  type CatalogEntry,
  isMcpToolDefinition,
  type ToolDefinition,
  toCatalogEntry,
} from "../../core/catalog/index.js";
import { toErrorResult } from "../../core/controls/index.js";
import { createExecutor, type ExecutionHooks } from "../../core/execution/index.js";

/** Tools whose calls run through one executor pipeline, and the way to close that pipeline. */
export interface RoutedTools {
  /** The same declarations, each `execute` routed through the pipeline (a tool with no catalog entry is dropped). */
  tools: ToolDefinition[];
  /** The routed declaration made for each given tool. */
  routed: ReadonlyMap<ToolDefinition, ToolDefinition>;
  /** The catalog entry behind each declared name (MCP tools are declared as `<server>__<tool>`). */
  entries: ReadonlyMap<string, CatalogEntry>;
  /** Later calls fail closed; queued calls are cancelled. */
  close(): void;
}

/**
 * With Tool Search off the provider sees every admitted tool as it is, but a call must still pass the same
 * pipeline as any routed call (`describe-and-call.md`): policy, `before_tool_call` hooks on every surface,
 * approval, argument validation, the per-call timeout, the run's abort signal, and untrusted-result
 * wrapping for MCP and client tools. Errors become error results for the model; nothing throws.
 */
export function routeThroughExecutor(tools: readonly ToolDefinition[], hooks: ExecutionHooks): RoutedTools {
  const entries = new Set<CatalogEntry>();
  const byName = new Map<string, CatalogEntry>();
  const routedByTool = new Map<ToolDefinition, ToolDefinition>();
  let closed = false;
  const executor = createExecutor({ hooks, isAvailable: (entry) => !closed && entries.has(entry) });
  const routed = tools.flatMap((tool): ToolDefinition[] => {
    const entry = toCatalogEntry(tool);
    if (!entry) return [];
    entries.add(entry);
    // Declared directly, an MCP tool is named `<server>__<tool>` so two servers' tools never clash; the
    // call is still judged and logged as the entry `mcp:<server>:<tool>`.
    const name = isMcpToolDefinition(tool) ? tool.directName : entry.name;
    byName.set(name, entry);
    const routedTool: ToolDefinition = {
      ...tool,
      name,
      execute: async (args, context) => {
        try {
          return await executor.execute(entry, args, {
            surface: "direct",
            ...(context?.toolCallId === undefined ? {} : { toolCallId: context.toolCallId }),
            ...(context?.signal === undefined ? {} : { signal: context.signal }),
          });
        } catch (error) {
          return toErrorResult(error);
        }
      },
    };
    routedByTool.set(tool, routedTool);
    return [routedTool];
  });
  return {
    tools: routed,
    routed: routedByTool,
    entries: byName,
    close() {
      closed = true;
      executor.close();
    },
  };
}
