import type { McpToolDefinition, ToolDefinition } from "./types.js";

/** Separator of the provider-facing name of a directly declared MCP tool: `<server>__<tool>`. */
export const DIRECT_NAME_SEPARATOR = "__";

/** The provider-facing name of an MCP tool declared directly: `<server>__<tool>`. */
export function mcpDirectName(server: string, tool: string): string {
  return `${server}${DIRECT_NAME_SEPARATOR}${tool}`;
}

/**
 * The definition to declare when an MCP tool goes to a model or client directly (Tool Search off): the same
 * tool under its `directName`, so two servers' `search` tools stay apart. The catalog keeps the plain name
 * (ids carry the server), so search and `tool_call` use the tool's own name.
 */
export function asDirectTool(tool: McpToolDefinition): ToolDefinition {
  const { directName, mcp: _mcp, ...rest } = tool;
  return { ...rest, name: directName };
}

/** True for a tool listed by an upstream MCP server through an MCP tool source (it carries a `directName`). */
export function isMcpToolDefinition(tool: ToolDefinition): tool is McpToolDefinition {
  return tool.origin?.kind === "mcp" && typeof (tool as Partial<McpToolDefinition>).directName === "string";
}

/**
 * For hosts that declare tools directly (Tool Search off): every MCP tool from an MCP tool source under
 * its `<server>__<tool>` name, every other tool unchanged, in order.
 */
export function asDirectTools(tools: readonly ToolDefinition[]): ToolDefinition[] {
  return tools.map((tool) => (isMcpToolDefinition(tool) ? asDirectTool(tool) : tool));
}
