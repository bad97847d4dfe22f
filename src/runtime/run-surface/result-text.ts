import type { ToolResult } from "../../core/catalog/index.js";

/** The text a tool result sends back to the model: its text blocks joined; images are named, not sent. */
export function resultText(result: ToolResult): string {
  const parts: string[] = [];
  for (const block of Array.isArray(result?.content) ? result.content : []) {
    if (block?.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block?.type === "image") parts.push(`[image: ${block.mimeType}]`);
  }
  return parts.join("\n");
}
