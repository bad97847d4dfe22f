export { type CodeModeAvailability, codeModeAvailable } from "./code-mode-available.js";
export {
  type CodeModeSurface,
  type CodeModeSurfaceOptions,
  prepareCodeModeSurface,
} from "./code-mode-surface.js";
export { createCodeMode } from "./create-code-mode.js";
export {
  DEFAULT_CELL_TIMEOUT_MS,
  DEFAULT_MAX_BRIDGE_CALLS,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_MEMORY_LIMIT_BYTES,
  DEFAULT_YIELD_MS,
  MAX_CELL_TIMEOUT_MS,
  MIN_CELL_TIMEOUT_MS,
} from "./limits.js";
export { EXEC_TOOL_NAME, WAIT_TOOL_NAME } from "./model-tools.js";
export type {
  CellError,
  CodeMode,
  CodeModeErrorCode,
  CodeModeOptions,
  CodeModeOutcome,
  ExecOptions,
  FinalOutcome,
  WaitOptions,
} from "./types.js";
