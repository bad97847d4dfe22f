/** Core tools `group:fs` stands for (core origin only). */
export const FS_GROUP_NAMES: ReadonlySet<string> = new Set(["read", "write", "edit"]);

/** Core tools `group:runtime` stands for (core origin only). */
export const RUNTIME_GROUP_NAMES: ReadonlySet<string> = new Set(["exec", "process"]);

/** Every `group:<name>` a selector may name; any other group matches nothing. */
export const KNOWN_GROUPS: readonly string[] = ["fs", "runtime", "plugins", "mcp", "client"];

/** Profiles a policy layer may name; `full` is the default. */
export const KNOWN_PROFILES: readonly string[] = ["minimal", "coding", "full"];

/** The profile a layer without `profile` uses. */
export const DEFAULT_PROFILE = "full";

/** Longest selector text quoted back in a denial reason or a problem (longer ones are cut). */
export const MAX_SHOWN_SELECTOR_CHARS = 120;

/** Distinct policies (agents with their own tool settings) whose verdicts are kept for later runs. */
export const MAX_SHARED_POLICIES = 64;
