/** Largest config file read; a larger one is refused before it is parsed. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;
/** Deepest nesting of objects and arrays accepted in a config file. */
export const MAX_CONFIG_DEPTH = 32;
/** Most problems listed in one CONFIG_INVALID message; the rest are counted. */
export const MAX_LISTED_CONFIG_ISSUES = 100;

/** Default most model requests in one run. */
export const DEFAULT_MAX_TURNS = 24;
/** Highest `maxTurns` accepted. */
export const MAX_TURNS_CEILING = 1000;
/** Default wall-clock limit of one run in ms (10 minutes). */
export const DEFAULT_RUN_TIMEOUT_MS = 600_000;
/** Highest timeout accepted anywhere in the file, in ms (24 hours). */
export const MAX_CONFIG_TIMEOUT_MS = 86_400_000;
/** Highest `maxRetries` accepted for a provider. */
export const MAX_PROVIDER_RETRIES = 10;
/** Highest `contextWindowTokens` accepted. */
export const MAX_CONTEXT_WINDOW_TOKENS = 100_000_000;
/** Highest `gateway.maxBodyBytes` accepted (256 MiB). */
export const MAX_GATEWAY_BODY_BYTES = 256 * 1024 * 1024;
/** Highest `gateway.maxQueuedPerSession` accepted. */
export const MAX_QUEUED_PER_SESSION_CEILING = 1000;
/** Highest `mcp.serve.maxSessions` accepted. */
export const MAX_MCP_SERVE_SESSIONS = 10_000;
/** Lowest `mcp.serve.sessionIdleMs` accepted (1 s); the highest is MAX_CONFIG_TIMEOUT_MS. */
export const MIN_MCP_SERVE_SESSION_IDLE_MS = 1_000;
/** Lowest `mcp.serve.maxSessionLogBytes` accepted (64 KiB). */
export const MIN_MCP_SERVE_SESSION_LOG_BYTES = 64 * 1024;
/** Highest `mcp.serve.maxSessionLogBytes` accepted (1 GiB). */
export const MAX_MCP_SERVE_SESSION_LOG_BYTES = 1024 * 1024 * 1024;
/** Longest `sessions.retention.maxAgeDays` (100 years: effectively forever). */
export const MAX_RETENTION_DAYS = 36_500;
