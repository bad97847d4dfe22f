export { applyConfigEdit } from "./apply-config-edit.js";
export type {
  AgentEntry,
  AgentSettings,
  McpServerSettings,
  ToolPolicySettings,
  ToolsiftConfig,
} from "./config-file-types.js";
export { configOptionText } from "./config-option-text.js";
export { type ConfigPathSegment, formatConfigPath, isPlainRecord, readConfigPath } from "./config-path.js";
export { parseConfigPathExpression } from "./config-path-expression.js";
export { DEFAULT_AGENT_INSTRUCTIONS } from "./default-agent-instructions.js";
export {
  type ConfigSource,
  type EditConfigFileOptions,
  type EditConfigFileResult,
  editConfigFile,
  readConfigSource,
} from "./edit-config.js";
export { type ConfigEdit, editConfigText } from "./edit-config-text.js";
export { type EnvReference, isEnvReference, readEnvReference } from "./env-reference.js";
export { formatJson5Key, formatJson5Value, type Json5FormatOptions } from "./format-json5-value.js";
export { invalidConfigError, NOTHING_CHANGED, unusableConfigError } from "./invalid-config-error.js";
export { isLocalModel } from "./is-local-model.js";
export {
  CONFIG_FILE_NAME,
  DEFAULT_AGENT_MODEL,
  DEFAULT_MAX_SEARCH_LIMIT,
  DEFAULT_MAX_TURNS,
  DEFAULT_MODEL_PROVIDER,
  DEFAULT_RUN_TIMEOUT_MS,
  DEFAULT_SEARCH_DEFAULT_LIMIT,
  LOCAL_MAX_SEARCH_LIMIT,
  LOCAL_SEARCH_DEFAULT_LIMIT,
  MAIN_AGENT_ID,
  MAX_CONFIG_FILE_BYTES,
  MAX_SEARCH_LIMIT_CEILING,
  MIGRATION_COMMAND,
} from "./limits.js";
export { type LoadConfigOptions, type LoadedConfig, loadConfig } from "./load-config.js";
export { missingConfigError } from "./missing-config-error.js";
export { parseConfigText } from "./parse-config-text.js";
export {
  listAgentIds,
  type ResolveAgentOptions,
  type ResolvedAgent,
  resolveAgent,
} from "./resolve-agent.js";
export {
  type ConfigPaths,
  type ResolveConfigPathsOptions,
  resolveConfigPaths,
} from "./resolve-config-paths.js";
export { type ResolvedEnvReferences, resolveEnvReferences } from "./resolve-env-references.js";
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
export { validateConfig } from "./validate-config.js";
export { validateToolSearchConfig } from "./validate-tool-search-config.js";
export { writeFileAtomic } from "./write-file-atomic.js";
