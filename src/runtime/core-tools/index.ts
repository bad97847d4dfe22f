export { coreToolsSettings, createCoreTools } from "./create-core-tools.js";
export {
  DEFAULT_EXEC_TIMEOUT_MS,
  DEFAULT_MAX_EXEC_OUTPUT_BYTES,
  DEFAULT_MAX_READ_BYTES,
  DEFAULT_MAX_WRITE_BYTES,
  MAX_PATH_CHARS,
  MAX_PATH_COMPONENT_BYTES,
} from "./limits.js";
export { resolveInsideWorkspace } from "./resolve-inside-workspace.js";
export type { CoreToolsOptions, CoreToolsSettings, WorkspacePath } from "./types.js";
