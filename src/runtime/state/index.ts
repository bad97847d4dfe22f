export type { ApprovalLedger, ApprovalSettlement } from "../approvals/index.js";
export { createMemoryApprovalLedger } from "../approvals/index.js";
export { createFileStateStore } from "./file-state-store.js";
export {
  CONSOLE_IDLE_MS,
  CONSOLE_MAX_AGE_MS,
  MAX_CONSOLE_SESSIONS,
  MAX_CONSOLE_SESSIONS_PER_KEY,
  MAX_PENDING_LOGINS,
  MAX_REMEMBERED_RESPONSES,
  MAX_STORED_RESPONSE_BYTES,
  PENDING_LOGIN_MS,
} from "./limits.js";
export { createMemoryConsoleSessionStore, randomConsoleToken } from "./memory-console-sessions.js";
export { createMemoryResponseStore, ResponseRegistry } from "./response-registry.js";
export { createMemoryRunQueue, SessionQueue, turnAfter } from "./session-queue.js";
export {
  type ConsoleSessionRecord,
  type ConsoleSessionStore,
  type QueueStats,
  type ResponseOrigin,
  type ResponseStore,
  SessionQueueFullError,
  type SessionRunQueue,
  type StateStore,
} from "./types.js";
