import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { createCoreTools } from "../core-tools/index.js";
import type { RunCaches } from "../environment/index.js";
import { MAX_CORE_TOOL_WORKSPACES } from "./limits.js";
import type { RunnerOptions } from "./runner-options.js";

const NO_TOOLS: readonly ToolDefinition[] = Object.freeze([]);

/**
 * The core tools of a workspace, made once per environment: they hold nothing but their settings, and the
 * same definitions run after run let the run surface reuse the policy's verdicts and the catalog instead of
 * rebuilding them.
 */
function coreToolsFor(caches: RunCaches, workspace: string): readonly ToolDefinition[] {
  const cache = caches.coreToolsByWorkspace;
  let tools = cache.get(workspace);
  if (tools) return tools;
  tools = Object.freeze(createCoreTools({ workspace }));
  if (cache.size >= MAX_CORE_TOOL_WORKSPACES) cache.clear();
  cache.set(workspace, tools);
  return tools;
}

/**
 * One list of `sources` in order: the very list of the last call when every source is the same list (by
 * identity, with the same length) as then, so runs over unchanged sources hand the run surface the same
 * array and its shared policy verdicts and catalog are found without a pass over thousands of tools.
 * Sources replace their lists when they change (plugins load once, MCP connections swap theirs on
 * `list_changed`).
 */
function joined(
  caches: RunCaches,
  key: string,
  sources: readonly (readonly ToolDefinition[])[],
): readonly ToolDefinition[] {
  const cache = caches.gatheredByWorkspace;
  const last = cache.get(key);
  if (
    last &&
    last.sources.length === sources.length &&
    last.sources.every((list, index) => list === sources[index])
  ) {
    const lengths = last.tools.length === sources.reduce((sum, list) => sum + list.length, 0);
    if (lengths) return last.tools;
  }
  const tools = Object.freeze(sources.flat());
  if (cache.size >= MAX_CORE_TOOL_WORKSPACES) cache.clear();
  cache.set(key, { sources, tools });
  return tools;
}

/**
 * The tools of an agent's sources, before policy: core tools (in the agent's workspace), plugin tools and
 * the extra sources (MCP). The run surface applies the agent's policy before anything else sees them: a
 * denied tool never reaches the catalog, the directory, the provider request or the session log.
 */
export async function gatheredTools(
  options: RunnerOptions,
  agent: ResolvedAgent,
): Promise<readonly ToolDefinition[]> {
  const { caches, plugins } = options.environment;
  const core = options.coreTools === false ? NO_TOOLS : coreToolsFor(caches, agent.workspace);
  const sources = [core, plugins.tools, (await options.extraTools?.()) ?? NO_TOOLS];
  return joined(caches, agent.workspace, sources);
}
