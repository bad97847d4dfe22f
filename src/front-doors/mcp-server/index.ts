export { createMcpFrontend, type McpFrontend } from "./create-mcp-frontend.js";
export { HTTP_SESSION_IDLE_MS, MAX_HTTP_SESSIONS, MAX_MCP_SESSION_LOG_BYTES } from "./limits.js";
export { type HttpMcpServer, serveMcpHttp } from "./serve-mcp-http.js";
export { type StdioMcpServer, serveMcpStdio } from "./serve-mcp-stdio.js";
