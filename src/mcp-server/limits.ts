/** Agent id of the session logs `toolsift mcp serve` writes. */
export const MCP_AGENT_ID = "mcp";

/** Largest JSON body `mcp serve --http` reads (4 MiB, the SDK's default). */
export const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;
/** Most concurrent MCP sessions `mcp serve --http` keeps; a new session beyond it is refused with 503. */
export const MAX_HTTP_SESSIONS = 64;
/** An HTTP MCP session without a request for this long is closed (30 min). */
export const HTTP_SESSION_IDLE_MS = 30 * 60_000;
/** How often idle HTTP sessions are looked for (1 min). */
export const HTTP_IDLE_SWEEP_MS = 60_000;
/** Path of the MCP endpoint of `mcp serve --http`. */
export const MCP_HTTP_PATH = "/mcp";
