import { CONTROL_NAMES, type ToolDefinition, toCatalogEntry } from "../../core/catalog/index.js";
import type { ExecutionHooks } from "../../core/execution/index.js";
import { modelToolEntry } from "../../core/tool-search/index.js";
import type { OpenedToolSearch } from "./open-tool-search.js";
import { type RoutedTools, routeThroughExecutor } from "./route-through-executor.js";
import type { CallAttribution } from "./run-events.js";

/** The tools a run declares, by name, with the executor that routes the ones Tool Search returned bare. */
export interface DeclaredTools {
  tools: ToolDefinition[];
  byName: Map<string, ToolDefinition>;
  routed?: RoutedTools;
}

/**
 * The model tools of an opened Tool Search (or Code Mode's). What a disabled Tool Search returns is each
 * tool as it is, never wrapped: those are routed through an executor of their own with the run's hooks, so
 * no declared tool bypasses the pipeline.
 */
export function declareTools(opened: OpenedToolSearch, hooks: ExecutionHooks): DeclaredTools {
  const own = opened.search.modelTools();
  const offered = opened.codeMode?.modelTools() ?? own;
  const bare = opened.search.enabled ? new Set<ToolDefinition>() : new Set(own);
  const routed = bare.size > 0 ? routeThroughExecutor([...bare], hooks) : undefined;
  const tools = offered.flatMap((tool) => {
    if (!bare.has(tool)) return [tool];
    const routedTool = routed?.routed.get(tool);
    return routedTool ? [routedTool] : [];
  });
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  return { tools, byName, ...(routed ? { routed } : {}) };
}

/** The catalog tool a declared tool reaches (nothing for the controls). */
export function attributionOf(declared: DeclaredTools, tool: ToolDefinition): CallAttribution {
  const entry = declared.routed?.entries.get(tool.name) ?? modelToolEntry(tool) ?? toCatalogEntry(tool);
  return entry && !CONTROL_NAMES.has(entry.name) ? { toolId: entry.id, source: entry.source } : {};
}
