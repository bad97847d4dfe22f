export {
  createHostToolSearch,
  createToolSearch,
  type ToolSearchHostOptions,
} from "./create-tool-search.js";
export { isLocalModel } from "./is-local-model.js";
export {
  DEFAULT_MAX_SEARCH_LIMIT,
  DEFAULT_SEARCH_DEFAULT_LIMIT,
  LOCAL_MAX_SEARCH_LIMIT,
  LOCAL_SEARCH_DEFAULT_LIMIT,
  MAX_SEARCH_LIMIT_CEILING,
  MIGRATION_COMMAND,
  TOOL_SEARCH_CONFIG_PATH,
} from "./limits.js";
export {
  formatSettingIssues,
  isToolSearchSettings,
  readToolSearchSettings,
  type ToolSearchSettingsReading,
} from "./read-tool-search-settings.js";
export { resolveToolSearchConfig } from "./resolve-tool-search-config.js";
export { resolveSearchLimits } from "./search-limits.js";
export type {
  Harness,
  ModelReference,
  ResolvedToolSearchConfig,
  ResolveToolSearchOptions,
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
