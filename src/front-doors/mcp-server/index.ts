export { createMcpFrontend, type McpFrontend } from "./create-mcp-frontend.js";
export { type HttpMcpServer, serveMcpHttp } from "./serve-mcp-http.js";
export { type StdioMcpServer, serveMcpStdio } from "./serve-mcp-stdio.js";
