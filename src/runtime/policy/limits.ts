/** Longest selector text quoted back in a denial reason or a problem (longer ones are cut). */
export const MAX_SHOWN_SELECTOR_CHARS = 120;

/** Distinct policies (agents with their own tool settings) whose verdicts are kept for later runs. */
export const MAX_SHARED_POLICIES = 64;
