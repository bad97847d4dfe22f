import type { ApprovalRecord } from "../approvals/index.js";
import type { SessionEvent } from "../sessions/index.js";

/** An `approval` session line as a run hands it to its log (the log stamps the time and run id). */
export type ApprovalLogEvent = Omit<Extract<SessionEvent, { type: "approval" }>, "at" | "runId">;

/**
 * The `approval` line every front door logs for a call that waited for approval: who settled it, the
 * verdict and outcome, the note (redacted by the log like every line), the request and decision times.
 */
export function approvalEvent({
  id,
  toolName,
  ...record
}: ApprovalRecord & { callId?: string }): ApprovalLogEvent {
  return { type: "approval", approvalId: id, name: toolName, ...record };
}
