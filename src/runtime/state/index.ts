export type { ApprovalLedger, ApprovalSettlement } from "../approvals/index.js";
export { createMemoryApprovalLedger } from "../approvals/index.js";
export { createFileStateStore } from "./file-state-store.js";
export { MAX_REMEMBERED_RESPONSES, MAX_STORED_RESPONSE_BYTES } from "./limits.js";
export { createMemoryResponseStore, ResponseRegistry } from "./response-registry.js";
export { createMemoryRunQueue, SessionQueue, turnAfter } from "./session-queue.js";
export {
  type QueueStats,
  type ResponseOrigin,
  type ResponseStore,
  SessionQueueFullError,
  type SessionRunQueue,
  type StateStore,
} from "./types.js";
