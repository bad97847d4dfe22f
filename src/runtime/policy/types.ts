import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ToolPolicySettings } from "../config/index.js";

/**
 * The policy layers of one run, applied in this order. A tool is admitted only when every present layer
 * admits it, so a later layer can only narrow.
 */
export interface PolicyLayers {
  /** `tools.*` of the config file. */
  global?: ToolPolicySettings;
  /** `agents.list[<id>].tools`. */
  agent?: ToolPolicySettings;
  /** `agents.list[<id>].sandbox.tools`. */
  sandbox?: ToolPolicySettings;
  /** The agent id, used only to name the agent and sandbox layers in reasons. Default: unnamed (`agents.list[]`). */
  agentId?: string;
}

/** A tool the policy kept out of the run, with the reason naming the layer and selector. */
export interface DeniedTool {
  name: string;
  /** The catalog id; `""` for a definition that could not be cataloged. */
  id: string;
  reason: string;
}

/** What {@link applyToolPolicy} returns. */
export interface ToolPolicyResult {
  /** Admitted definitions, in input order. */
  admitted: ToolDefinition[];
  denied: DeniedTool[];
}
