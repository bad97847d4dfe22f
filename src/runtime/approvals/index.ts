export { createApprovalBroker, DEFAULT_APPROVAL_REQUIRE } from "./create-approval-broker.js";
export { MAX_APPROVAL_NOTE_CHARS } from "./limits.js";
export type { ApprovalBroker, ApprovalVerdict, PendingApproval } from "./types.js";
