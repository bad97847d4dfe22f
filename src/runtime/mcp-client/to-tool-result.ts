import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolContent, ToolResult } from "../../core/catalog/index.js";

type McpContent = CallToolResult["content"][number];

/**
 * Maps an MCP `tools/call` result onto a ToolResult: text blocks stay text, image blocks stay images
 * (data, mimeType), `structuredContent` becomes `details` (and, when the server sent no content at all, a
 * JSON text block so the model sees it), `isError` is kept. Embedded resources become their text (or a note
 * for binary ones); audio and resource links become a short text note. The executor wraps every text block
 * as untrusted network content afterwards.
 */
export function toToolResult(result: CallToolResult): ToolResult {
  const content: ToolContent[] = result.content.map(toContent);
  if (content.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  }
  const mapped: ToolResult = { content };
  if (result.structuredContent !== undefined) mapped.details = result.structuredContent;
  if (result.isError === true) mapped.isError = true;
  return mapped;
}

function toContent(block: McpContent): ToolContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", data: block.data, mimeType: block.mimeType };
    case "audio":
      return { type: "text", text: `[audio content (${block.mimeType}) is not shown]` };
    case "resource_link":
      return { type: "text", text: `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}]` };
    case "resource": {
      const resource = block.resource;
      if ("text" in resource && typeof resource.text === "string") {
        return { type: "text", text: `[resource ${resource.uri}]\n${resource.text}` };
      }
      const mimeType = resource.mimeType ? `, ${resource.mimeType}` : "";
      return { type: "text", text: `[binary resource ${resource.uri}${mimeType} is not shown]` };
    }
    default:
      return { type: "text", text: "[content of an unsupported type is not shown]" };
  }
}
