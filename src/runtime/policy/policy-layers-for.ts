import type { ToolPolicySettings, ToolsiftConfig } from "../config/index.js";
import type { PolicyLayers } from "./types.js";

/** The parts of an agent the policy reads (a ResolvedAgent or an `agents.list` entry fits). */
export interface PolicyAgent {
  id: string;
  tools?: ToolPolicySettings;
  sandbox?: { tools?: ToolPolicySettings };
}

/** The policy layers of a run of `agent` under `config`: `tools`, the agent's `tools`, its `sandbox.tools`. */
export function policyLayersFor(config: ToolsiftConfig, agent: PolicyAgent): PolicyLayers {
  const layers: PolicyLayers = { agentId: agent.id };
  const global = policyKeys(config.tools);
  if (global) layers.global = global;
  if (agent.tools) layers.agent = agent.tools;
  if (agent.sandbox?.tools) layers.sandbox = agent.sandbox.tools;
  return layers;
}

/** Only the policy keys of `tools` (it also holds `toolSearch` and `approval`). */
function policyKeys(tools: ToolPolicySettings | undefined): ToolPolicySettings | undefined {
  if (!tools) return undefined;
  const settings: ToolPolicySettings = {};
  if (tools.profile !== undefined) settings.profile = tools.profile;
  if (tools.allow !== undefined) settings.allow = tools.allow;
  if (tools.alsoAllow !== undefined) settings.alsoAllow = tools.alsoAllow;
  if (tools.deny !== undefined) settings.deny = tools.deny;
  return settings;
}
