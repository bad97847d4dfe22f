export { applyToolPolicy, UNCATALOGABLE_REASON } from "./apply-tool-policy.js";
export {
  DEFAULT_PROFILE,
  FS_GROUP_NAMES,
  KNOWN_GROUPS,
  KNOWN_PROFILES,
  RUNTIME_GROUP_NAMES,
} from "./limits.js";
export { matchesSelector } from "./matches-selector.js";
export { policyDecision } from "./policy-decision.js";
export { type PolicyAgent, policyLayersFor } from "./policy-layers-for.js";
export { applySharedToolPolicy, createPolicyCache, type PolicyCache } from "./shared-tool-policy.js";
export type { DeniedTool, PolicyLayers, ToolPolicyResult } from "./types.js";
export { validatePolicySelectors } from "./validate-policy-selectors.js";
