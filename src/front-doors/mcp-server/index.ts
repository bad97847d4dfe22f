export {
  createMcpFrontend,
  type McpFrontend,
  type McpFrontendConnection,
  type McpFrontendOptions,
} from "./create-mcp-frontend.js";
export { MCP_AGENT_ID, MCP_HTTP_PATH } from "./limits.js";
export { type HttpMcpServer, type ServeMcpHttpOptions, serveMcpHttp } from "./serve-mcp-http.js";
export { type StdioMcpServer, serveMcpStdio } from "./serve-mcp-stdio.js";
export type { McpServeEnvironment, McpServeShared } from "./serve-session.js";
