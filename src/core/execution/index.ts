export { BlockedError } from "./blocked-error.js";
export { createExecutor, type Executor, type ExecutorOptions } from "./create-executor.js";
export { MAX_SHARED_VALIDATORS } from "./limits.js";
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
export { wrapUntrustedText } from "./wrap-untrusted-text.js";
