/** Default bound for draining in-flight runs on close. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;

/** Agents whose resolved settings a runner keeps (unknown agent ids are refused, so this is the config's). */
export const MAX_RESOLVED_AGENTS = 256;
