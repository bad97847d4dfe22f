import type { ToolDefinition } from "../catalog/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { createCoreTools } from "../core-tools/index.js";
import { type PolicyLayers, policyLayersFor } from "../policy/index.js";
import { MAX_CORE_TOOL_WORKSPACES } from "./limits.js";
import type { RunnerOptions } from "./runner-options.js";

/**
 * The core tools per workspace, made once: they hold nothing but their settings, and the same definitions
 * run after run let the run surface reuse the policy's verdicts and the catalog instead of rebuilding them.
 */
const coreToolsByWorkspace = new Map<string, readonly ToolDefinition[]>();

function coreToolsFor(workspace: string): readonly ToolDefinition[] {
  let tools = coreToolsByWorkspace.get(workspace);
  if (tools) return tools;
  tools = Object.freeze(createCoreTools({ workspace }));
  if (coreToolsByWorkspace.size >= MAX_CORE_TOOL_WORKSPACES) coreToolsByWorkspace.clear();
  coreToolsByWorkspace.set(workspace, tools);
  return tools;
}

/** The tools of an agent's sources, before policy, and the policy the run surface applies to them. */
export interface GatheredTools {
  tools: ToolDefinition[];
  policy: PolicyLayers;
}

/**
 * Gathers core tools (in the agent's workspace), plugin tools and the extra sources (MCP), with the agent's
 * tool policy. The run surface applies that policy before anything else sees them: a denied tool never
 * reaches the catalog, the directory, the provider request or the session log.
 */
export async function gatheredTools(options: RunnerOptions, agent: ResolvedAgent): Promise<GatheredTools> {
  return {
    tools: [
      ...(options.coreTools === false ? [] : coreToolsFor(agent.workspace)),
      ...(options.plugins?.tools ?? []),
      ...((await options.extraTools?.()) ?? []),
    ],
    policy: policyLayersFor(options.config, agent),
  };
}
