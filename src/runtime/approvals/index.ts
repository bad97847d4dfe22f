export {
  APPROVAL_CANCELLED_REASON,
  APPROVAL_CLOSED_REASON,
  APPROVAL_ID_PREFIX,
  createApprovalBroker,
  DEFAULT_APPROVAL_REQUIRE,
} from "./create-approval-broker.js";
export {
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
