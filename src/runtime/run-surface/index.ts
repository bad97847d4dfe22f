export { type ApprovalLogEvent, approvalEvent } from "./approval-event.js";
export { MAX_LOGGED_OUTPUT_CHARS } from "./limits.js";
export { openRunSurface } from "./open-run-surface.js";
export { resultText } from "./result-text.js";
export {
  emitRunEvent,
  type RunEvent,
  type RunEventSink,
  type RunResult,
  type RunStatus,
} from "./run-events.js";
export { createRunHooks } from "./run-hooks.js";
export type { TargetActivity } from "./target-activity.js";
export type { RunSurface, SurfaceCall } from "./types.js";
