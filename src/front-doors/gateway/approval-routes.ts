import type { Hono } from "hono";
import {
  type ApprovalBroker,
  type ApprovalVerdict,
  MAX_APPROVAL_NOTE_CHARS,
  type PendingApproval,
} from "../../runtime/approvals/index.js";
import { type Caller, isAdminCaller } from "../../runtime/http-guard/index.js";
import { callerOf } from "./caller-access.js";
import { invalidRequest, notFound } from "./gateway-error.js";
import { MAX_APPROVAL_BODY_BYTES } from "./limits.js";
import { readJsonBody } from "./request/read-json-body.js";
import { clientSessionName } from "./session-owner.js";

/** Ids quoted back in a 404: what the broker hands out, nothing a client could use to inject text. */
const QUOTABLE_ID = /^[A-Za-z0-9_-]{1,64}$/u;

/**
 * Registers `GET /v1/approvals` (the calls waiting for a decision) and `POST /v1/approvals/:id`
 * (`{ decision: "allow" | "deny", note? }`). Decisions are accepted while the gateway drains: they let the
 * runs it waits for finish. A key sees and decides only the approvals of its own runs (another key's id is
 * answered as an unknown one); an admin key sees and decides all, each listed with the `keyId` that asked.
 */
export function registerApprovalRoutes(app: Hono, approvals: ApprovalBroker): void {
  app.get("/v1/approvals", async (c) => {
    const caller = callerOf(c);
    return c.json({ approvals: await visibleApprovals(approvals, caller) });
  });

  // Read within its own cap by readJsonBody: an upload the client abandons is one log line, not a 500.
  app.post("/v1/approvals/:id", async (c) => {
    const body = await readJsonBody(c, MAX_APPROVAL_BODY_BYTES);
    return c.json(await decideApproval(approvals, callerOf(c), c.req.param("id"), body));
  });
}

/**
 * Settles a pending approval for `caller` (`POST /v1/approvals/:id`, and the console): the body
 * (`{ decision, note? }`) is checked before the id, and another key's or an unknown id is the same 404.
 */
export async function decideApproval(
  approvals: ApprovalBroker,
  caller: Caller,
  id: string,
  body: unknown,
): Promise<{ id: string; decision: ApprovalVerdict }> {
  const { decision, note } = readDecision(body);
  // Settled only when listed for this caller: ids are unguessable and never reused, and the first
  // settlement wins, so a request that settled in between is answered as an unknown one.
  const visible = (await approvals.pending()).some(
    (pending) => pending.id === id && mayDecide(caller, pending),
  );
  if (!visible || !(await approvals.decide(id, decision, note, caller.keyId))) {
    const shown = QUOTABLE_ID.test(id) ? ` "${id}"` : "";
    throw notFound(
      `no pending approval${shown}: it does not exist, or it was already decided, timed out or cancelled. GET /v1/approvals lists the pending ones.`,
      "id",
    );
  }
  return { id, decision };
}

/** True when `caller` may see and decide `pending`: admin callers all, other keys their own runs'. */
function mayDecide(caller: Caller, pending: PendingApproval): boolean {
  return isAdminCaller(caller) || pending.keyId === caller.keyId;
}

/** The pending approvals `caller` may see; a non-admin key sees its own session names. */
export async function visibleApprovals(
  approvals: ApprovalBroker,
  caller: Caller,
): Promise<PendingApproval[]> {
  const visible = (await approvals.pending()).filter((pending) => mayDecide(caller, pending));
  if (isAdminCaller(caller)) return visible;
  return visible.map((pending) => ({
    ...pending,
    sessionKey: clientSessionName(caller, pending.sessionKey),
  }));
}

function readDecision(body: unknown): { decision: ApprovalVerdict; note?: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidRequest(undefined, 'send a JSON object: { "decision": "allow" | "deny", "note"?: string }.');
  }
  const record = body as Record<string, unknown>;
  const decision = Object.hasOwn(record, "decision") ? record.decision : undefined;
  if (decision !== "allow" && decision !== "deny") {
    throw invalidRequest("decision", 'decision must be "allow" or "deny".');
  }
  const note = Object.hasOwn(record, "note") ? record.note : undefined;
  if (note === undefined || note === null) return { decision };
  if (typeof note !== "string") throw invalidRequest("note", "note must be a string when given.");
  if (note.length > MAX_APPROVAL_NOTE_CHARS) {
    throw invalidRequest("note", `note is longer than ${MAX_APPROVAL_NOTE_CHARS} characters: shorten it.`);
  }
  return { decision, note };
}
