import { type CallToolResult, type Tool, ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition, ToolResult } from "../../core/catalog/index.js";
import { safeRead, safeReadString } from "../../shared/schema/index.js";

/** The input schema announced for a tool whose own schema an MCP client would reject: any object. */
const ANY_OBJECT_SCHEMA: Tool["inputSchema"] = { type: "object" };

/**
 * A tool definition as an MCP `tools/list` entry. The input schema is passed on as it is when MCP clients
 * accept it (an object schema whose properties are schemas); otherwise it is announced as "any object", so
 * one odd schema never makes a client reject the whole list. The tool's own boundary still validates.
 */
export function toMcpTool(tool: ToolDefinition): Tool {
  const listed: Tool = {
    name: safeReadString(tool, "name"),
    description: safeReadString(tool, "description"),
    inputSchema: ANY_OBJECT_SCHEMA,
  };
  const label = safeReadString(tool, "label");
  if (label) listed.title = label;
  const parameters = safeRead(tool, "parameters");
  const candidate = { ...listed, inputSchema: parameters };
  if (ToolSchema.safeParse(candidate).success) listed.inputSchema = parameters as Tool["inputSchema"];
  return listed;
}

/** A ToolResult as an MCP `tools/call` result: text and image blocks, and `isError`. */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const content: CallToolResult["content"] = [];
  const blocks = safeRead(result, "content");
  for (const block of Array.isArray(blocks) ? blocks : []) {
    const type = safeRead(block, "type");
    if (type === "text") content.push({ type: "text", text: safeReadString(block, "text") });
    else if (type === "image")
      content.push({
        type: "image",
        data: safeReadString(block, "data"),
        mimeType: safeReadString(block, "mimeType"),
      });
  }
  return safeRead(result, "isError") === true ? { content, isError: true } : { content };
}
