export { MAX_ACTIVITY_RESULT_CHARS, MAX_LOGGED_OUTPUT_CHARS } from "./limits.js";
export { resultText } from "./result-text.js";
export { createRunHooks, type RunHooksOptions } from "./run-hooks.js";
export { type TargetActivity, toTargetActivity } from "./target-activity.js";
export { type RunToolSearchInput, toolSearchModel, toolSearchOptionsFor } from "./tool-search-options.js";
