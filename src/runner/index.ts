export { createRunner } from "./create-runner.js";
export type { RunnerOptions } from "./runner-options.js";
export type {
  EffectiveSurface,
  EffectiveTool,
  Runner,
  RunRequest,
  RunResult,
  RunStatus,
} from "./types.js";
