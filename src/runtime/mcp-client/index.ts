export { createMcpToolSource } from "./create-mcp-tool-source.js";
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_START_TIMEOUT_MS,
  MAX_STDIO_BUFFER_BYTES,
  RESTART_BACKOFF_INITIAL_MS,
  RESTART_BACKOFF_MAX_MS,
} from "./limits.js";
export { MCP_IMPLEMENTATION } from "./open-server.js";
export { safeServerNames } from "./safe-server-names.js";
export type { McpServerStatus, McpToolDefinition, McpToolSource, McpToolSourceOptions } from "./types.js";
