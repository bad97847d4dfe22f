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
  /**
   * Told once how a request that waited for a decision was settled (not for calls approved or denied at once
   * by `require` or the mode), so the run can log it. A throwing listener changes nothing.
   */
  readonly onSettled?: (record: ApprovalRecord) => void;
};

/** How a call that waited for approval was settled: what the session log records (`approval` events). */
export type ApprovalRecord = {
  /** The request's id (`appr_…`). */
  readonly id: string;
  readonly toolId: string;
  readonly toolName: string;
  readonly verdict: ApprovalVerdict;
  /** `allowed by the operator: …`, `denied by the operator`, `timed out`, `cancelled`, `closed`, … */
  readonly outcome: string;
  /** The key that decided (`gateway.auth.keys[].id`); absent when no key did (a timeout, a cancel). */
  readonly decidedBy?: string;
  /** The operator's note, when they wrote one. */
  readonly note?: string;
  /** ISO 8601 times the request was published and settled. */
  readonly requestedAt: string;
  readonly decidedAt: string;
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
  /**
   * Where pending requests live and how decisions reach the waiting run. Default: this process's memory
   * (createMemoryApprovalLedger); a fleet passes the database's ledger.
   */
  ledger?: ApprovalLedger;
};

/** Decides tool calls that need approval, and holds the ones waiting for an operator. */
export interface ApprovalBroker {
  /** Approves at once unless the tool matches `require`; then decides by mode (ask: waits for `decide`). */
  requestApproval(event: ApprovalRequestEvent): Promise<ApprovalDecision>;
  /** The requests waiting now, oldest first (copies): this process's, or the fleet's with a shared ledger. */
  pending(): Promise<PendingApproval[]>;
  /**
   * Settles a pending request (of this process, or of any process sharing the ledger); false when the id is
   * unknown or already settled. Rejects with STORAGE_UNAVAILABLE when a shared ledger cannot be reached.
   */
  decide(id: string, decision: ApprovalVerdict, note?: string, decidedBy?: string): Promise<boolean>;
  /** Denies every pending request, and every later one that would wait. Idempotent. */
  close(): void;
  /**
   * Tells `listener` when the pending list may have changed: a request was published (by this process, or by
   * another sharing a ledger that announces publications) or settled (through this process, or any process
   * sharing a ledger that announces settlements). A request whose gateway died leaves the list untold: read
   * `pending()` again now and then. Returns what stops the telling.
   */
  onChange(listener: () => void): () => void;
}

/** How an approval request was settled: the verdict, and the words the run's tool result carries. */
export type ApprovalSettlement = {
  verdict: ApprovalVerdict;
  /** `allowed by the operator: note`, `denied by the operator`, `timed out`, … (logged; a denial's reason). */
  outcome: string;
  /** The reason a denied call gets (absent on an allow). */
  reason?: string;
  /** The key that decided (an operator's decision made by a key). */
  decidedBy?: string;
  /** The operator's note, when they wrote one. */
  note?: string;
  /** ISO 8601 time of the settlement. */
  decidedAt?: string;
};

/**
 * Where pending approval requests live and how decisions travel to the run that waits: in this process's
 * memory, or in a database shared by a fleet (a decision made through any gateway reaches the run at once).
 * The first settlement of a request wins; every later one is refused.
 */
export interface ApprovalLedger {
  /** Publishes a request a run of this process now waits on. */
  publish(request: PendingApproval): Promise<void>;
  /** Every request waiting for a decision and not yet expired, oldest first (copies). */
  list(): Promise<PendingApproval[]>;
  /** Settles a waiting request; false when it is unknown or already settled (someone else won). */
  settle(id: string, settlement: ApprovalSettlement): Promise<boolean>;
  /** How a request was settled, or undefined while it waits (or when unknown). */
  settlement(id: string): Promise<ApprovalSettlement | undefined>;
  /**
   * Tells `listener` each time a request is settled (through this process or, for a shared ledger, any
   * process of the fleet); returns what stops the telling.
   */
  onSettled(listener: (id: string, settlement: ApprovalSettlement) => void): () => void;
  /**
   * Tells `listener` when another process sharing the ledger may have published a request (its
   * announcement arrived, or the ledger reconnected and may have missed some); returns what stops the
   * telling. Optional: a ledger without it (this process's memory) has no other publisher.
   */
  onPublished?(listener: () => void): () => void;
}
