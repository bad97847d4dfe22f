export {
  createMcpFrontend,
  type McpFrontend,
  type McpFrontendConnection,
  type McpFrontendOptions,
} from "./create-mcp-frontend.js";
export { createMcpToolSource } from "./create-mcp-tool-source.js";
export { asDirectTool, asDirectTools, isMcpToolDefinition, mcpDirectName } from "./direct-tool-name.js";
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_START_TIMEOUT_MS,
  DIRECT_NAME_SEPARATOR,
  MCP_AGENT_ID,
  MCP_HTTP_PATH,
  RESTART_BACKOFF_INITIAL_MS,
  RESTART_BACKOFF_MAX_MS,
} from "./limits.js";
export { safeServerNames } from "./safe-server-names.js";
export { type HttpMcpServer, type ServeMcpHttpOptions, serveMcpHttp } from "./serve-mcp-http.js";
export { type StdioMcpServer, serveMcpStdio } from "./serve-mcp-stdio.js";
export type { McpServerStatus, McpToolDefinition, McpToolSource, McpToolSourceOptions } from "./types.js";
