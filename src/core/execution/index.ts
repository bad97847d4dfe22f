export { BlockedError } from "./blocked-error.js";
export { createExecutor, type Executor } from "./create-executor.js";
export type {
  ApprovalDecision,
  BeforeToolCallResult,
  CallSurface,
  ExecutionHooks,
  PolicyDecision,
  ToolCallActivity,
  ToolCallEvent,
} from "./types.js";
export { wrapUntrustedText } from "./wrap-untrusted-text.js";
