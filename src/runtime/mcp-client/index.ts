export { createMcpToolSource } from "./create-mcp-tool-source.js";
export { MAX_STDIO_BUFFER_BYTES } from "./limits.js";
export { MCP_IMPLEMENTATION } from "./open-server.js";
export type { McpServerStatus, McpToolDefinition, McpToolSource } from "./types.js";
