export { type CodeModeSurface, prepareCodeModeSurface } from "./code-mode-surface.js";
export { createCodeMode } from "./create-code-mode.js";
export { DEFAULT_CELL_TIMEOUT_MS } from "./limits.js";
export type {
  CellError,
  CodeMode,
  CodeModeErrorCode,
  CodeModeOptions,
  CodeModeOutcome,
  ExecOptions,
  WaitOptions,
} from "./types.js";
