export { MAX_ACTIVITY_RESULT_CHARS, MAX_LOGGED_OUTPUT_CHARS } from "./limits.js";
export {
  openRunSurface,
  type RunSurface,
  type RunSurfaceOptions,
  type SurfaceCall,
} from "./open-run-surface.js";
export { resultText } from "./result-text.js";
export { type RoutedTools, routeThroughExecutor } from "./route-through-executor.js";
export {
  type CallAttribution,
  emitRunEvent,
  type RunEvent,
  type RunEventSink,
  type RunResult,
  type RunStatus,
} from "./run-events.js";
export { createRunHooks, type RunHooksOptions } from "./run-hooks.js";
export { createRuntimeCaches, libraryRuntimeCaches, type RuntimeCaches } from "./runtime-caches.js";
export { type SearchSummary, searchSummary } from "./search-summary.js";
export { type TargetActivity, toTargetActivity } from "./target-activity.js";
export { type RunToolSearchInput, toolSearchModel, toolSearchOptionsFor } from "./tool-search-options.js";
