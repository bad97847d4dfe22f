export { createMcpToolSource } from "./create-mcp-tool-source.js";
export { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_START_TIMEOUT_MS, MAX_STDIO_BUFFER_BYTES } from "./limits.js";
export { MCP_IMPLEMENTATION } from "./open-server.js";
export type { McpServerStatus, McpToolDefinition, McpToolSource } from "./types.js";
