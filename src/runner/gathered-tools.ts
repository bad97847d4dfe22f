import type { ToolDefinition } from "../catalog/index.js";
import type { ResolvedAgent } from "../config/index.js";
import { createCoreTools } from "../core-tools/index.js";
import { type PolicyLayers, policyLayersFor } from "../policy/index.js";
import type { RunnerOptions } from "./runner-options.js";

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
      ...(options.coreTools === false ? [] : createCoreTools({ workspace: agent.workspace })),
      ...(options.plugins?.tools ?? []),
      ...((await options.extraTools?.()) ?? []),
    ],
    policy: policyLayersFor(options.config, agent),
  };
}
