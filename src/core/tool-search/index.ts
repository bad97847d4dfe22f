export {
  createHostToolSearch,
  createToolSearch,
  type ToolSearchHostOptions,
} from "./create-tool-search.js";
export {
  formatSettingIssues,
  isToolSearchSettings,
  MIGRATION_COMMAND,
  readToolSearchSettings,
} from "./read-tool-search-settings.js";
export { resolveToolSearchConfig } from "./resolve-tool-search-config.js";
export type {
  Harness,
  ModelReference,
  SettingIssue,
  ToolSearchConfigValue,
  ToolSearchSettings,
} from "./settings-types.js";
export {
  createToolSearchCaches,
  libraryToolSearchCaches,
  type ToolSearchCaches,
  type ToolSearchCachesOptions,
} from "./tool-search-caches.js";
export type { ToolSearch, ToolSearchOptions } from "./types.js";
export { validateToolSearchConfig } from "./validate-tool-search-config.js";
export { modelToolEntry } from "./wrap-for-model.js";
