import type { ApprovalDecision, ToolCallEvent } from "../../core/execution/index.js";

/** How calls to tools that need approval are decided: by an operator (`ask`), or always one way. */
export type ApprovalMode = "ask" | "allow" | "deny";

/** An operator's answer to a pending request. */
export type ApprovalVerdict = "allow" | "deny";

/** A call waiting for approval, as published to operators (`GET /v1/approvals`). */
export type PendingApproval = {
  /** `appr_<24 hex>`, unguessable. */
  readonly id: string;
  /** Catalog id, `<source>:<owner>:<name>`. */
  readonly toolId: string;
  readonly toolName: string;
  /** The call's arguments with secrets redacted. */
  readonly args: unknown;
  readonly agentId: string;
  readonly sessionKey: string;
  /** The client key whose run asked (`gateway.auth.keys[].id`); absent for a run no key asked for. */
  readonly keyId?: string;
  /** ISO 8601 time the request was published. */
  readonly createdAt: string;
  /** ISO 8601 time after which the call is denied. */
  readonly expiresAt: string;
};

/** A tool call that may need approval, with the run it belongs to. */
export type ApprovalRequestEvent = ToolCallEvent & {
  readonly agentId: string;
  readonly sessionKey: string;
  /** The client key of the run (see `PendingApproval.keyId`). */
  readonly keyId?: string;
};

/** Options of `createApprovalBroker` (the `tools.approval` config section, plus a log). */
export type ApprovalBrokerOptions = {
  /** Default `"ask"`: wait for an operator's decision. */
  mode?: ApprovalMode;
  /** Tool selectors (names, globs, groups, owners) needing a decision. Default `["exec"]`. */
  require?: readonly string[];
  /** How long a request waits before it is denied. Default 60 000 ms (`DEFAULT_APPROVAL_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** Receives one line per request and per outcome (never arguments). Default: nothing is logged. */
  log?: (line: string) => void;
};

/** Decides tool calls that need approval, and holds the ones waiting for an operator. */
export interface ApprovalBroker {
  /** Approves at once unless the tool matches `require`; then decides by mode (ask: waits for `decide`). */
  requestApproval(event: ApprovalRequestEvent): Promise<ApprovalDecision>;
  /** The requests waiting now, oldest first (copies). */
  pending(): PendingApproval[];
  /** Settles a pending request; false when the id is unknown or already settled. */
  decide(id: string, decision: ApprovalVerdict, note?: string): boolean;
  /** Denies every pending request, and every later one that would wait. Idempotent. */
  close(): void;
}
