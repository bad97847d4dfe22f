export {
  createHostToolSearch,
  createToolSearch,
  type ToolSearchHostOptions,
} from "./create-tool-search.js";
export {
  formatSettingIssues,
  MIGRATION_COMMAND,
  readToolSearchSettings,
  requireToolSearchSettings,
} from "./read-tool-search-settings.js";
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
