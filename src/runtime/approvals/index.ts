export {
  APPROVAL_CANCELLED_REASON,
  APPROVAL_CLOSED_REASON,
  createApprovalBroker,
} from "./create-approval-broker.js";
export {
  APPROVAL_ID_PREFIX,
  DEFAULT_APPROVAL_REQUIRE,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  MAX_APPROVAL_NOTE_CHARS,
  MAX_APPROVAL_TIMEOUT_MS,
  MAX_PENDING_APPROVALS,
} from "./limits.js";
export type {
  ApprovalBroker,
  ApprovalBrokerOptions,
  ApprovalMode,
  ApprovalRequestEvent,
  ApprovalVerdict,
  PendingApproval,
} from "./types.js";
