export { type BlockedDetails, BlockedError } from "./blocked-error.js";
export {
  createExecutor,
  type ExecuteOptions,
  type Executor,
  type ExecutorOptions,
  QUEUED_TOOL_CHANGED_MESSAGE,
} from "./create-executor.js";
export { DEFAULT_TOOL_TIMEOUT_MS, MAX_NETWORK_TEXT_CHARS } from "./limits.js";
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
export { wrapNetworkResult } from "./wrap-network-result.js";
export { sanitiseUntrustedText, wrapUntrustedText } from "./wrap-untrusted-text.js";
