export { createRunner } from "./create-runner.js";
export { DEFAULT_CONTEXT_WINDOW_TOKENS } from "./fit-history.js";
export type { ProviderStatus } from "./provider-status.js";
export { createRunSignal, type RunSignal } from "./run-signal.js";
export type { RunnerEnvironment, RunnerOptions } from "./runner-options.js";
export { startRunStream } from "./stream-run.js";
export type {
  ClientToolDeclaration,
  ControlAnswer,
  EffectiveSurface,
  Runner,
  RunRequest,
  RunResult,
  ToolDescribePreview,
  ToolSearchBatchQuery,
  ToolSearchLook,
  ToolSearchPreview,
} from "./types.js";
