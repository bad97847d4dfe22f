export {
  createApprovalBroker,
  DEFAULT_APPROVAL_MODE,
  DEFAULT_APPROVAL_REQUIRE,
} from "./create-approval-broker.js";
export { DEFAULT_APPROVAL_TIMEOUT_MS, MAX_APPROVAL_NOTE_CHARS } from "./limits.js";
export { createMemoryApprovalLedger } from "./memory-approval-ledger.js";
export type {
  ApprovalBroker,
  ApprovalLedger,
  ApprovalRecord,
  ApprovalSettlement,
  ApprovalVerdict,
  PendingApproval,
} from "./types.js";
