/** Largest JSON body `mcp serve --http` reads (4 MiB, the SDK's default). */
export const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;
/**
 * Default most concurrent MCP sessions `mcp serve --http` keeps (`mcp.serve.maxSessions`); a new session
 * beyond it evicts the least recently used idle one, and is refused with 503 only when all are busy.
 */
export const MAX_HTTP_SESSIONS = 64;
/** Default: an HTTP MCP session without a request for this long is closed (30 min, `mcp.serve.sessionIdleMs`). */
export const HTTP_SESSION_IDLE_MS = 30 * 60_000;
/**
 * Default size (bytes) past which one MCP connection's session log keeps only the metadata of each call
 * (`mcp.serve.maxSessionLogBytes`, 16 MiB): tool names, ids, status, timing; outputs, arguments and target
 * results become NOT_LOGGED_MARKER.
 */
export const MAX_MCP_SESSION_LOG_BYTES = 16 * 1024 * 1024;
/** Most characters of a client-chosen tool name or JSON-RPC request id kept in the session log. */
export const MAX_LOGGED_NAME_CHARS = 200;
