export {
  buildCatalog,
  type CatalogBuild,
  type RejectedTool,
  visibleWhileCataloged,
} from "./build-catalog.js";
export { type CatalogSnapshot, compareCodeUnits, createCatalogSnapshot } from "./catalog-snapshot.js";
export { CONTROL_NAMES, CORE_PRIMITIVE_NAMES } from "./limits.js";
export { toCatalogEntry } from "./to-catalog-entry.js";
export type {
  CatalogEntry,
  EntrySource,
  JsonSchema,
  ToolCallContext,
  ToolContent,
  ToolDefinition,
  ToolOrigin,
  ToolResult,
} from "./types.js";
