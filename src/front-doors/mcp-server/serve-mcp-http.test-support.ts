import type { McpServerStatus } from "../../runtime/mcp-client/index.js";
import type { SessionEvent, SessionStore } from "../../runtime/sessions/index.js";

/** A session store in memory: every event appended, read back in order. */
export function memorySessions(): SessionStore {
  const events: SessionEvent[] = [];
  return {
    append: async (_agentId, _sessionKey, event) => {
      events.push(event);
    },
    read: async () => [...events],
    list: async () => [],
  };
}

/** An upstream MCP source with no servers and no tools (the frontend serves only the tools given to it). */
export const EMPTY_SOURCE = {
  tools: () => [],
  status: (): McpServerStatus[] => [],
  onToolsChanged: () => () => {},
};

/** The body of a client's first request to `mcp serve --http`. */
export const INITIALIZE_REQUEST = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "probe", version: "1.0.0" },
  },
});
