import type { Harness, ModelReference } from "../../core/tool-search/index.js";
import type { ResolvedAgent, ToolsiftConfig } from "../config/index.js";
import { type PolicyLayers, policyLayersFor } from "../policy/index.js";

/** Agent id of what `toolsift mcp serve` runs: its session logs, hooks, approvals and `agents.list` entry. */
export const MCP_SERVE_PROFILE_ID = "mcp";

/** Who a run runs as: what, beside its tools, decides its surface and judges its calls. */
export interface RunProfile {
  /** The agent id its session log, hooks and approvals name (`main`, an `agents.list` id, `mcp`). */
  id: string;
  /** Decides whether Tool Search applies (`codex` never gets the controls). */
  harness: Harness;
  /** The run's model, for local-model limits. Default: none (hosted limits). */
  model?: ModelReference;
  /** Scales the directory budget. Default: 18,000 characters. */
  contextWindowTokens?: number;
  /** The tool policy: a denied tool never reaches the catalog, and every call is judged again. Default: all admitted. */
  policy?: PolicyLayers;
}

/** The profile of a gateway run of `agent`: its harness, model, context window and policy layers. */
export function agentProfile(
  config: ToolsiftConfig,
  agent: ResolvedAgent,
): RunProfile & { policy: PolicyLayers } {
  return {
    id: agent.id,
    harness: agent.harness,
    model: toolSearchModel(agent),
    ...(agent.contextWindowTokens === undefined ? {} : { contextWindowTokens: agent.contextWindowTokens }),
    policy: policyLayersFor(config, agent),
  };
}

/**
 * The profile `toolsift mcp serve` runs under: agent id `mcp` on the `embedded` harness with no model (MCP
 * clients bring their own), the global policy narrowed by an `agents.list` entry `mcp` when there is one,
 * and the context window resolved as for any agent (`agents.list` entry over `agents.defaults`).
 */
export function mcpServeProfile(config: ToolsiftConfig): RunProfile {
  const entry = config.agents?.list?.find((agent) => agent.id === MCP_SERVE_PROFILE_ID);
  const contextWindowTokens = entry?.contextWindowTokens ?? config.agents?.defaults?.contextWindowTokens;
  return {
    id: MCP_SERVE_PROFILE_ID,
    harness: "embedded",
    ...(contextWindowTokens === undefined ? {} : { contextWindowTokens }),
    policy: policyLayersFor(config, entry ?? { id: MCP_SERVE_PROFILE_ID }),
  };
}

/** The model as Tool Search sees it (local-model limits read the provider's settings). */
export function toolSearchModel(agent: ResolvedAgent): ModelReference {
  const settings = agent.model.settings;
  return {
    provider: agent.model.provider,
    id: agent.model.id,
    ...(settings?.baseUrl ? { baseUrl: settings.baseUrl } : {}),
    ...(settings?.localService === undefined ? {} : { localService: settings.localService }),
    ...(settings?.api ? { api: settings.api } : {}),
  };
}
