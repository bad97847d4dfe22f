export { buildCatalog, visibleWhileCataloged } from "./build-catalog.js";
export {
  type CatalogCache,
  catalogCapacity,
  createCatalogCache,
  libraryCatalogCache,
  setCatalogCacheSize,
  sharedCatalog,
  sharedCatalogCount,
} from "./catalog-cache.js";
export { type CatalogSnapshot, compareCodeUnits, createCatalogSnapshot } from "./catalog-snapshot.js";
export {
  CONTROL_NAMES,
  CORE_PRIMITIVE_NAMES,
  DEFAULT_CATALOG_CACHE_SIZE,
  MAX_CATALOG_CACHE_SIZE,
} from "./limits.js";
export { isMcpToolDefinition, mcpDirectName } from "./mcp-direct-name.js";
export { createSequenceMemo, type SequenceMemo } from "./sequence-memo.js";
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
