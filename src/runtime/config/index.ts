export type {
  AgentEntry,
  AgentSettings,
  McpServerSettings,
  ToolPolicySettings,
  ToolsiftConfig,
} from "./config-file-types.js";
export { configOptionText } from "./config-option-text.js";
export { type ConfigPathSegment, formatConfigPath, isPlainRecord, readConfigPath } from "./config-path.js";
export { DEFAULT_AGENT_INSTRUCTIONS } from "./default-agent-instructions.js";
export { type EnvReference, isEnvReference, readEnvReference } from "./env-reference.js";
export { invalidConfigError, NOTHING_CHANGED, unusableConfigError } from "./invalid-config-error.js";
export {
  CONFIG_FILE_NAME,
  DEFAULT_AGENT_MODEL,
  DEFAULT_MAX_TURNS,
  DEFAULT_MODEL_PROVIDER,
  DEFAULT_RUN_TIMEOUT_MS,
  LONGEST_SHOWN_VALUE,
  MAIN_AGENT_ID,
  MAX_CONFIG_DEPTH,
  MAX_CONFIG_FILE_BYTES,
  MAX_LISTED_CONFIG_ISSUES,
  MIGRATION_COMMAND,
} from "./limits.js";
export { type LoadConfigOptions, type LoadedConfig, loadConfig } from "./load-config.js";
export { type ConfigNamedBy, missingConfigError } from "./missing-config-error.js";
export { parseConfigText } from "./parse-config-text.js";
export {
  AGENT_ENVIRONMENT_VARIABLES,
  agentEnvironmentKey,
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
export type { ConfigIssue } from "./types.js";
export { validateConfig } from "./validate-config.js";
