export {
  buildCatalog,
  type CatalogBuild,
  type RejectedTool,
  visibleWhileCataloged,
} from "./build-catalog.js";
export { type CatalogSnapshot, compareCodeUnits, createCatalogSnapshot } from "./catalog-snapshot.js";
export { CONTROL_NAMES, CORE_PRIMITIVE_NAMES, DIRECT_NAME_SEPARATOR } from "./limits.js";
export { asDirectTool, asDirectTools, isMcpToolDefinition, mcpDirectName } from "./mcp-direct-name.js";
export { toCatalogEntry } from "./to-catalog-entry.js";
export type {
  CatalogEntry,
  EntrySource,
  JsonSchema,
  McpToolDefinition,
  ToolCallContext,
  ToolContent,
  ToolDefinition,
  ToolOrigin,
  ToolResult,
} from "./types.js";
