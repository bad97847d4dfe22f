export { applyToolPolicy } from "./apply-tool-policy.js";
export { DEFAULT_PROFILE, policyDecision } from "./policy-decision.js";
export { policyLayersFor } from "./policy-layers-for.js";
export { matchesSelector } from "./selector.js";
export { applySharedToolPolicy, createPolicyCache, type PolicyCache } from "./shared-tool-policy.js";
export type { PolicyLayers } from "./types.js";
export { validatePolicySelectors } from "./validate-policy-selectors.js";
