export { applyToolPolicy, UNCATALOGABLE_REASON } from "./apply-tool-policy.js";
export { FS_GROUP_NAMES, matchesSelector, RUNTIME_GROUP_NAMES } from "./matches-selector.js";
export { KNOWN_GROUPS } from "./parse-selector.js";
export { DEFAULT_PROFILE, policyDecision } from "./policy-decision.js";
export { type PolicyAgent, policyLayersFor } from "./policy-layers-for.js";
export { applySharedToolPolicy } from "./shared-tool-policy.js";
export type { DeniedTool, PolicyLayers, ToolPolicyResult } from "./types.js";
export { KNOWN_PROFILES, validatePolicySelectors } from "./validate-policy-selectors.js";
