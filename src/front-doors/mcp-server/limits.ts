import { MCP_SERVE_PROFILE_ID } from "../../runtime/environment/index.js";

/** Agent id of the session logs `toolsift mcp serve` writes: the id of the profile it runs under. */
export const MCP_AGENT_ID = MCP_SERVE_PROFILE_ID;

/** Largest JSON body `mcp serve --http` reads (4 MiB, the SDK's default). */
export const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;
/**
 * Default most concurrent MCP sessions `mcp serve --http` keeps (`mcp.serve.maxSessions`); a new session
 * beyond it evicts the least recently used idle one, and is refused with 503 only when all are busy.
 */
export const MAX_HTTP_SESSIONS = 64;
/** Default: an HTTP MCP session without a request for this long is closed (30 min, `mcp.serve.sessionIdleMs`). */
export const HTTP_SESSION_IDLE_MS = 30 * 60_000;
/** How often idle HTTP sessions are looked for (1 min, or the idle timeout when that is shorter). */
export const HTTP_IDLE_SWEEP_MS = 60_000;
/** The shortest interval between idle sweeps (1 s), whatever the idle timeout. */
export const HTTP_MIN_IDLE_SWEEP_MS = 1_000;
/** `Retry-After` (seconds) of the 503 a new session gets while every session has a call running. */
export const HTTP_SESSIONS_BUSY_RETRY_AFTER_S = 5;
/**
 * Default size (bytes) past which one MCP connection's session log keeps only the metadata of each call
 * (`mcp.serve.maxSessionLogBytes`, 16 MiB): tool names, ids, status, timing; outputs, arguments and target
 * results become NOT_LOGGED_MARKER.
 */
export const MAX_MCP_SESSION_LOG_BYTES = 16 * 1024 * 1024;
/** Most characters of a client-chosen tool name or JSON-RPC request id kept in the session log. */
export const MAX_LOGGED_NAME_CHARS = 200;
/** Path of the MCP endpoint of `mcp serve --http`. */
export const MCP_HTTP_PATH = "/mcp";
