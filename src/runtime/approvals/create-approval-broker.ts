import { randomBytes } from "node:crypto";
import type { ApprovalDecision } from "../../core/execution/index.js";
import { messageOf, ToolsiftError } from "../../shared/errors/index.js";
import { matchesSelector, validatePolicySelectors } from "../policy/index.js";
import { redactSecrets } from "../sessions/index.js";
import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  MAX_APPROVAL_NOTE_CHARS,
  MAX_APPROVAL_TIMEOUT_MS,
  MAX_PENDING_APPROVALS,
  SHOWN_VALUE_CHARS,
} from "./limits.js";
import { createMemoryApprovalLedger } from "./memory-approval-ledger.js";
import type {
  ApprovalBroker,
  ApprovalBrokerOptions,
  ApprovalMode,
  ApprovalRecord,
  ApprovalRequestEvent,
  ApprovalSettlement,
  ApprovalVerdict,
  PendingApproval,
} from "./types.js";

/** Tools that need a decision when the config names none: the shell. */
/** `tools.approval.mode` when unset: calls that need approval wait for an operator. */
export const DEFAULT_APPROVAL_MODE: ApprovalMode = "ask";

export const DEFAULT_APPROVAL_REQUIRE: readonly string[] = ["exec"];

/** Random bytes in an approval id (hex-encoded after the prefix). */
const APPROVAL_ID_RANDOM_BYTES = 12;

/** Prefix of every approval request id (`appr_<24 hex>`). */
const APPROVAL_ID_PREFIX = "appr_";

const APPROVED: ApprovalDecision = Object.freeze({ approved: true });
const MODES: readonly ApprovalMode[] = ["ask", "allow", "deny"];

/** Reason a call gets when its run was cancelled while it waited. */
export const APPROVAL_CANCELLED_REASON = "the call was cancelled while waiting for approval";
/** Reason a call gets when the broker closed (the gateway is stopping) while or before it waited. */
export const APPROVAL_CLOSED_REASON = "approvals are closed: the gateway is stopping";

type Waiter = {
  request: PendingApproval;
  /** Ends the wait with `settlement` (once; later calls do nothing). */
  finish(settlement: ApprovalSettlement): void;
};

/**
 * Makes the approval broker of `tools.approval`: calls to tools matching `require` are decided by `mode`;
 * in `ask` mode they wait, published in the ledger (this process's memory, or a database a fleet shares),
 * until a decision (`decide`, through any process on the ledger), the timeout (a denial), the caller's abort
 * (a denial) or `close()` (a denial). Everything that is not an explicit allow is a denial, and so is a
 * ledger that cannot be reached.
 */
export function createApprovalBroker(options: ApprovalBrokerOptions = {}): ApprovalBroker {
  const mode = readMode(options.mode);
  const timeoutMs = readTimeout(options.timeoutMs);
  const require = readRequire(options.require);
  const ledger = options.ledger ?? createMemoryApprovalLedger();
  const waiters = new Map<string, Waiter>();
  let closed = false;
  const log = (line: string): void => {
    try {
      options.log?.(line);
    } catch {
      // A failing log must not change a decision.
    }
  };
  const changeListeners = new Set<() => void>();
  const changed = (): void => {
    for (const listener of [...changeListeners]) {
      try {
        listener();
      } catch {
        // A listener is told, never in the way.
      }
    }
  };
  // A settlement made anywhere on the ledger ends this process's wait for it.
  ledger.onSettled((id, settlement) => {
    waiters.get(id)?.finish(settlement);
    changed();
  });
  // A request published by another process sharing the ledger changes the pending list too.
  ledger.onPublished?.(changed);

  /**
   * Settles `id` here (timeout, cancel, close) unless someone settled it first, in which case their
   * settlement stands; a ledger that cannot be reached leaves `fallback` (always a denial).
   */
  const settleLocally = async (id: string, fallback: ApprovalSettlement): Promise<ApprovalSettlement> => {
    try {
      if (await ledger.settle(id, fallback)) return fallback;
      return (await ledger.settlement(id)) ?? fallback;
    } catch (error) {
      log(`approval ${id}: could not record "${fallback.outcome}" (${messageOf(error)}); the call is denied`);
      return fallback;
    }
  };

  const needsApproval = (event: ApprovalRequestEvent): boolean =>
    require.some((selector) => {
      try {
        return matchesSelector(event.entry, selector);
      } catch {
        return true; // A selector that cannot be evaluated fails closed.
      }
    });

  const wait = async (event: ApprovalRequestEvent): Promise<ApprovalDecision> => {
    const signal = event.signal;
    if (signal?.aborted === true) return denied(APPROVAL_CANCELLED_REASON);
    if (waiters.size >= MAX_PENDING_APPROVALS) {
      log(`approval for ${event.entry.name} denied: ${MAX_PENDING_APPROVALS} requests are already pending`);
      return denied(`too many calls are waiting for approval (${MAX_PENDING_APPROVALS}); try again later`);
    }
    const now = Date.now();
    const request: PendingApproval = Object.freeze({
      id: `${APPROVAL_ID_PREFIX}${randomBytes(APPROVAL_ID_RANDOM_BYTES).toString("hex")}`,
      toolId: event.entry.id,
      toolName: event.entry.name,
      args: redactSecrets(event.args),
      agentId: event.agentId,
      sessionKey: event.sessionKey,
      ...(event.keyId === undefined ? {} : { keyId: event.keyId }),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + timeoutMs).toISOString(),
    });
    return new Promise((resolve) => {
      let done = false;
      const finish = (settlement: ApprovalSettlement): void => {
        if (done) return;
        done = true;
        waiters.delete(request.id);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        log(`approval ${request.id} ${settlement.outcome}: ${request.toolName}`);
        tellSettled(event, request, settlement);
        resolve(settlement.verdict === "allow" ? APPROVED : denied(settlement.reason ?? settlement.outcome));
      };
      // Cancelled or closed: the run stops waiting now; the ledger records it in the background.
      const endNow = (settlement: ApprovalSettlement): void => {
        finish(settlement);
        void settleLocally(request.id, settlement);
      };
      const onAbort = (): void =>
        endNow({
          verdict: "deny",
          outcome: "cancelled",
          reason: APPROVAL_CANCELLED_REASON,
          decidedAt: new Date().toISOString(),
        });
      // Timed out: an operator's decision that got in first (through any process) still stands.
      const timer = setTimeout(() => {
        const timedOut: ApprovalSettlement = {
          verdict: "deny",
          outcome: "timed out",
          reason: `no approval decision within ${timeoutMs} ms`,
          decidedAt: new Date().toISOString(),
        };
        void settleLocally(request.id, timedOut).then(finish);
      }, timeoutMs);
      waiters.set(request.id, { request, finish: (settlement) => finish(settlement) });
      signal?.addEventListener("abort", onAbort, { once: true });
      ledger.publish(request).then(
        () => {
          changed();
          if (closed && !done) endNow(CLOSED);
          else if (!done)
            log(
              `approval ${request.id} pending: ${request.toolName} (${request.toolId}) for agent ${request.agentId}, ` +
                `session ${request.sessionKey}${request.keyId === undefined ? "" : `, key ${request.keyId}`}; denied after ${timeoutMs} ms without a decision`,
            );
        },
        (error: unknown) =>
          finish({
            verdict: "deny",
            outcome: `not published (${messageOf(error)})`,
            reason: `approvals are unavailable: ${messageOf(error)}`,
          }),
      );
    });
  };

  return {
    async requestApproval(event) {
      if (!needsApproval(event)) return APPROVED;
      if (mode === "allow") return APPROVED;
      if (mode === "deny") return denied("approval mode is deny");
      if (closed) return denied(APPROVAL_CLOSED_REASON);
      return wait(event);
    },
    async pending() {
      return ledger.list();
    },
    async decide(id, decision, note, decidedBy) {
      const verdict = readVerdict(decision);
      if (typeof id !== "string") return false;
      const said = typeof note === "string" ? note.trim().slice(0, MAX_APPROVAL_NOTE_CHARS) : "";
      const suffix = said.length > 0 ? `: ${said}` : "";
      const who = {
        ...(typeof decidedBy === "string" ? { decidedBy } : {}),
        ...(said.length > 0 ? { note: said } : {}),
        decidedAt: new Date().toISOString(),
      };
      const settlement: ApprovalSettlement =
        verdict === "allow"
          ? { verdict, outcome: `allowed by the operator${suffix}`, ...who }
          : {
              verdict,
              outcome: `denied by the operator${suffix}`,
              reason: `denied by the operator${suffix}`,
              ...who,
            };
      return ledger.settle(id, settlement);
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => {
        changeListeners.delete(listener);
      };
    },
    close() {
      closed = true;
      for (const waiter of [...waiters.values()]) {
        waiter.finish(CLOSED);
        void settleLocally(waiter.request.id, CLOSED);
      }
    },
  };
}

/** Tells the waiting run how its request was settled (a failing listener changes nothing). */
function tellSettled(
  event: ApprovalRequestEvent,
  request: PendingApproval,
  settlement: ApprovalSettlement,
): void {
  if (event.onSettled === undefined) return;
  const record: ApprovalRecord = {
    id: request.id,
    toolId: request.toolId,
    toolName: request.toolName,
    verdict: settlement.verdict,
    outcome: settlement.outcome,
    ...(settlement.decidedBy === undefined ? {} : { decidedBy: settlement.decidedBy }),
    ...(settlement.note === undefined ? {} : { note: settlement.note }),
    requestedAt: request.createdAt,
    decidedAt: settlement.decidedAt ?? new Date().toISOString(),
  };
  try {
    event.onSettled(record);
  } catch {
    // The record is display-only: a failing listener must not change the decision.
  }
}

const CLOSED: ApprovalSettlement = Object.freeze({
  verdict: "deny",
  outcome: "closed",
  reason: APPROVAL_CLOSED_REASON,
});

function denied(reason: string): ApprovalDecision {
  return { approved: false, reason };
}

function readMode(mode: unknown): ApprovalMode {
  if (mode === undefined) return DEFAULT_APPROVAL_MODE;
  if (MODES.includes(mode as ApprovalMode)) return mode as ApprovalMode;
  throw new ToolsiftError(
    "CONFIG_INVALID",
    `tools.approval.mode must be "ask", "allow" or "deny", not ${shown(mode)}: fix it in the config file.`,
  );
}

function readTimeout(timeoutMs: unknown): number {
  if (timeoutMs === undefined) return DEFAULT_APPROVAL_TIMEOUT_MS;
  if (typeof timeoutMs === "number" && Number.isInteger(timeoutMs) && timeoutMs >= 1) {
    if (timeoutMs <= MAX_APPROVAL_TIMEOUT_MS) return timeoutMs;
  }
  throw new ToolsiftError(
    "CONFIG_INVALID",
    `tools.approval.timeoutMs must be a whole number of milliseconds from 1 to ${MAX_APPROVAL_TIMEOUT_MS}: fix it in the config file.`,
  );
}

/**
 * The `require` list, refused when a selector cannot match (an unknown group, a malformed id): a typo there
 * would otherwise let the tool it meant to guard run without approval.
 */
function readRequire(require: unknown): readonly string[] {
  if (require === undefined) return DEFAULT_APPROVAL_REQUIRE;
  if (!Array.isArray(require) || !require.every((selector) => typeof selector === "string")) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      'tools.approval.require must be a list of tool selectors (names, globs, "group:…", "plugin:…", "mcp:…"): fix it in the config file.',
    );
  }
  // The policy's checker reads allow/alsoAllow/deny lists; its paths are renamed to this key.
  const problems = validatePolicySelectors({ deny: require }, "tools.approval").map((problem) =>
    problem.replace(/^tools\.approval\.deny\[/u, "tools.approval.require["),
  );
  if (problems.length > 0) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `${problems.join("; ")}. Fix these selectors in the config file: a selector that matches nothing would let the tool it meant to guard run without approval.`,
    );
  }
  return Object.freeze([...require]);
}

function readVerdict(decision: unknown): ApprovalVerdict {
  if (decision === "allow" || decision === "deny") return decision;
  throw new ToolsiftError(
    "INVALID_REQUEST",
    `an approval decision is "allow" or "deny", not ${shown(decision)}.`,
  );
}

/** A short, safe rendering of a bad option value for an error message (never throws). */
function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, SHOWN_VALUE_CHARS));
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return `a value of type ${typeof value}`;
}
