import type { CatalogEntry, ToolContent, ToolResult } from "../catalog/index.js";
import { wrapUntrustedText } from "./wrap-untrusted-text.js";

/**
 * The result the model may see from `entry`: for a network-sourced entry (`resultSource === "network"`,
 * which the catalog sets for every MCP and client tool) each text block is sanitised, bounded and wrapped
 * in untrusted-content markers naming the entry id; image blocks, `details`, `terminate` and `isError`
 * are kept as they are. A local entry's result is returned unchanged. Never mutates `result`.
 */
export function wrapNetworkResult(result: ToolResult, entry: CatalogEntry): ToolResult {
  if (entry.resultSource !== "network") return result;
  const content: ToolContent[] = result.content.map((block) =>
    block.type === "text" ? { type: "text", text: wrapUntrustedText(block.text, entry.id) } : block,
  );
  return { ...result, content };
}
