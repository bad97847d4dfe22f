import type { Hono } from "hono";
import { type ApprovalBroker, type ApprovalVerdict, MAX_APPROVAL_NOTE_CHARS } from "../approvals/index.js";
import { invalidRequest, notFound } from "./gateway-error.js";
import { MAX_APPROVAL_BODY_BYTES } from "./limits.js";
import { readJsonBody } from "./read-json-body.js";

/** Ids quoted back in a 404: what the broker hands out, nothing a client could use to inject text. */
const QUOTABLE_ID = /^[A-Za-z0-9_-]{1,64}$/u;

/**
 * Registers `GET /v1/approvals` (the calls waiting for a decision) and `POST /v1/approvals/:id`
 * (`{ decision: "allow" | "deny", note? }`). Decisions are accepted while the gateway drains: they let the
 * runs it waits for finish.
 */
export function registerApprovalRoutes(app: Hono, approvals: ApprovalBroker): void {
  app.get("/v1/approvals", (c) => c.json({ approvals: approvals.pending() }));

  // Read within its own cap by readJsonBody: an upload the client abandons is one log line, not a 500.
  app.post("/v1/approvals/:id", async (c) => {
    const { decision, note } = readDecision(await readJsonBody(c, MAX_APPROVAL_BODY_BYTES));
    const id = c.req.param("id");
    if (!approvals.decide(id, decision, note)) {
      const shown = QUOTABLE_ID.test(id) ? ` "${id}"` : "";
      throw notFound(
        `no pending approval${shown}: it does not exist, or it was already decided, timed out or cancelled. GET /v1/approvals lists the pending ones.`,
        "id",
      );
    }
    return c.json({ id, decision });
  });
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
