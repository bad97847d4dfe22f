export { createRunner } from "./create-runner.js";
export type { ProviderStatus } from "./provider-status.js";
export {
  createRunSignal,
  type RunSignal,
  type RunSignalOptions,
  type RunSignalSource,
} from "./run-signal.js";
export type { RunnerEnvironment, RunnerOptions } from "./runner-options.js";
export { type RunEventStream, startRunStream, streamRun } from "./stream-run.js";
export type {
  ClientToolDeclaration,
  EffectiveSurface,
  EffectiveTool,
  InputTokenCountRequest,
  Runner,
  RunRequest,
  RunResult,
  RunStatus,
  WarmReport,
} from "./types.js";
