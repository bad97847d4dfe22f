import type { ToolDefinition } from "../catalog/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { createCoreTools } from "../core-tools/index.js";
import { applyToolPolicy, type PolicyLayers, policyLayersFor } from "../policy/index.js";
import type { RunnerOptions } from "./runner-options.js";

/** The tools a run of this agent may use, after policy, and the policy layers for call-time re-checks. */
export interface AdmittedTools {
  tools: ToolDefinition[];
  layers: PolicyLayers;
  /** Applies the same policy to tools that arrive with the request (client tools). */
  admit(tools: readonly ToolDefinition[]): ToolDefinition[];
}

/**
 * Gathers core tools (in the agent's workspace), plugin tools and the extra sources (MCP), then applies the
 * tool policy before anything else sees them: a denied tool never reaches the catalog, the directory, the
 * provider request or the session log.
 */
export async function admittedTools(options: RunnerOptions, agent: ResolvedAgent): Promise<AdmittedTools> {
  const layers = policyLayersFor(options.config, agent);
  const gathered = [
    ...(options.coreTools === false ? [] : createCoreTools({ workspace: agent.workspace })),
    ...(options.plugins?.tools ?? []),
    ...((await options.extraTools?.()) ?? []),
  ];
  const admit = (tools: readonly ToolDefinition[]) => applyToolPolicy(tools, layers).admitted;
  return { tools: admit(gathered), layers, admit };
}
