import { randomBytes } from "node:crypto";
import type { ApprovalDecision } from "../../core/execution/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { matchesSelector, validatePolicySelectors } from "../policy/index.js";
import { redactSecrets } from "../sessions/index.js";
import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  MAX_APPROVAL_NOTE_CHARS,
  MAX_APPROVAL_TIMEOUT_MS,
  MAX_PENDING_APPROVALS,
  SHOWN_VALUE_CHARS,
} from "./limits.js";
import type {
  ApprovalBroker,
  ApprovalBrokerOptions,
  ApprovalMode,
  ApprovalRequestEvent,
  ApprovalVerdict,
  PendingApproval,
} from "./types.js";

/** Tools that need a decision when the config names none: the shell. */
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

type Waiter = { request: PendingApproval; settle(decision: ApprovalDecision, outcome: string): void };

/**
 * Makes the approval broker of `tools.approval`: calls to tools matching `require` are decided by `mode`;
 * in `ask` mode they wait, published in `pending()`, until `decide`, the timeout (a denial), the caller's
 * abort (a denial) or `close()` (a denial). Everything that is not an explicit allow is a denial.
 */
export function createApprovalBroker(options: ApprovalBrokerOptions = {}): ApprovalBroker {
  const mode = readMode(options.mode);
  const timeoutMs = readTimeout(options.timeoutMs);
  const require = readRequire(options.require);
  const waiters = new Map<string, Waiter>();
  let closed = false;
  const log = (line: string): void => {
    try {
      options.log?.(line);
    } catch {
      // A failing log must not change a decision.
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

  const wait = (event: ApprovalRequestEvent): Promise<ApprovalDecision> => {
    const signal = event.signal;
    if (signal?.aborted === true) return Promise.resolve(denied(APPROVAL_CANCELLED_REASON));
    if (waiters.size >= MAX_PENDING_APPROVALS) {
      log(`approval for ${event.entry.name} denied: ${MAX_PENDING_APPROVALS} requests are already pending`);
      return Promise.resolve(
        denied(`too many calls are waiting for approval (${MAX_PENDING_APPROVALS}); try again later`),
      );
    }
    return new Promise((resolve) => {
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
      const onAbort = (): void => settle(denied(APPROVAL_CANCELLED_REASON), "cancelled");
      const timer = setTimeout(
        () => settle(denied(`no approval decision within ${timeoutMs} ms`), "timed out"),
        timeoutMs,
      );
      const settle = (decision: ApprovalDecision, outcome: string): void => {
        if (!waiters.delete(request.id)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        log(`approval ${request.id} ${outcome}: ${request.toolName}`);
        resolve(decision);
      };
      waiters.set(request.id, { request, settle });
      signal?.addEventListener("abort", onAbort, { once: true });
      log(
        `approval ${request.id} pending: ${request.toolName} (${request.toolId}) for agent ${request.agentId}, ` +
          `session ${request.sessionKey}${request.keyId === undefined ? "" : `, key ${request.keyId}`}; denied after ${timeoutMs} ms without a decision`,
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
    pending() {
      return [...waiters.values()].map((waiter) => ({ ...waiter.request }));
    },
    decide(id, decision, note) {
      const verdict = readVerdict(decision);
      const waiter = typeof id === "string" ? waiters.get(id) : undefined;
      if (waiter === undefined) return false;
      const said = typeof note === "string" ? note.trim().slice(0, MAX_APPROVAL_NOTE_CHARS) : "";
      const suffix = said.length > 0 ? `: ${said}` : "";
      if (verdict === "allow") waiter.settle(APPROVED, `allowed by the operator${suffix}`);
      else waiter.settle(denied(`denied by the operator${suffix}`), `denied by the operator${suffix}`);
      return true;
    },
    close() {
      closed = true;
      for (const waiter of [...waiters.values()]) waiter.settle(denied(APPROVAL_CLOSED_REASON), "closed");
    },
  };
}

function denied(reason: string): ApprovalDecision {
  return { approved: false, reason };
}

function readMode(mode: unknown): ApprovalMode {
  if (mode === undefined) return "ask";
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
