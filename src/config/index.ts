export { isLocalModel } from "./is-local-model.js";
export {
  DEFAULT_MAX_SEARCH_LIMIT,
  DEFAULT_SEARCH_DEFAULT_LIMIT,
  LOCAL_MAX_SEARCH_LIMIT,
  LOCAL_SEARCH_DEFAULT_LIMIT,
  MAX_SEARCH_LIMIT_CEILING,
} from "./limits.js";
export { resolveSearchLimits, type SearchLimits } from "./resolve-search-limits.js";
export { resolveToolSearchConfig } from "./resolve-tool-search-config.js";
export type {
  ConfigIssue,
  Harness,
  ModelReference,
  ResolvedToolSearchConfig,
  ResolveToolSearchOptions,
  ToolSearchMode,
} from "./types.js";
export { validateToolSearchConfig } from "./validate-tool-search-config.js";
