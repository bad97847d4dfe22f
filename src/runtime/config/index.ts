export type {
  AgentEntry,
  AgentSettings,
  McpServerSettings,
  ToolPolicySettings,
  ToolsiftConfig,
} from "./config-file-types.js";
export { configOptionText } from "./config-option-text.js";
export { type ConfigPathSegment, formatConfigPath, isPlainRecord, readConfigPath } from "./config-path.js";
export { type ConfigKey, type ConfigKeyNote, configKeys, renderConfigReference } from "./config-reference.js";
export { DEFAULT_AGENT_INSTRUCTIONS } from "./default-agent-instructions.js";
export { NOTHING_CHANGED, unusableConfigError } from "./invalid-config-error.js";
export {
  DEFAULT_MAX_TURNS,
  DEFAULT_RUN_TIMEOUT_MS,
  MAX_CONFIG_DEPTH,
  MAX_CONFIG_FILE_BYTES,
  MAX_LISTED_CONFIG_ISSUES,
} from "./limits.js";
export { type LoadedConfig, loadConfig } from "./load-config.js";
export { missingConfigError } from "./missing-config-error.js";
export { parseConfigText } from "./parse-config-text.js";
export {
  AGENT_ENVIRONMENT_VARIABLES,
  agentEnvironmentKey,
  DEFAULT_AGENT_MODEL,
  DEFAULT_HARNESS,
  DEFAULT_MODEL_PROVIDER,
  MAIN_AGENT_ID,
  type ResolvedAgent,
  resolveAgent,
  WORKSPACE_FOLDER,
} from "./resolve-agent.js";
export { resolveConfigPaths } from "./resolve-config-paths.js";
export { resolveEnvReferences } from "./resolve-env-references.js";
export { resolveStateUrl, STATE_URL_VARIABLE } from "./resolve-state-url.js";
export type { ConfigIssue } from "./types.js";
export { validateConfig } from "./validate-config.js";
