export { type BlockedDetails, BlockedError } from "./blocked-error.js";
export {
  createExecutor,
  type ExecuteOptions,
  type Executor,
  type ExecutorOptions,
  QUEUED_TOOL_CHANGED_MESSAGE,
} from "./create-executor.js";
export { DEFAULT_TIMEOUT_MS, MAX_NETWORK_TEXT_CHARS, MAX_SHARED_VALIDATORS } from "./limits.js";
export {
  CATALOG_UNAVAILABLE_MESSAGE,
  createToolScheduler,
  type ScheduleMode,
  type ScheduleOptions,
  type ScheduleSlot,
  type ToolScheduler,
} from "./tool-scheduler.js";
export type {
  ApprovalDecision,
  BeforeToolCallResult,
  CallSurface,
  ExecutionHooks,
  PolicyDecision,
  ToolCallActivity,
  ToolCallEvent,
} from "./types.js";
export { createValidatorCache, sharedValidatorCache, type ValidatorCache } from "./validator-cache.js";
export { wrapNetworkResult } from "./wrap-network-result.js";
export { sanitiseUntrustedText, wrapUntrustedText } from "./wrap-untrusted-text.js";
