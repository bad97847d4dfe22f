// Every value shown comes from the gateway's JSON and is untrusted text (tool names, arguments, outputs,
// session text): it goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, facts, pretty, problem, show, when } from "./dom.js";
import { follow } from "./live.js";

export async function showApprovals() {
  const list = el("div", { id: "approvals", "aria-live": "polite" });
  const status = el("div", { role: "status" });
  show(
    "Approvals",
    el("p", { class: "meta" }, "Calls waiting for a decision; the gateway pushes each change as it happens."),
    status,
    list,
  );
  const rows = new Map();
  /**
   * Ids being decided or decided on this page: their rows stay to show the outcome (the pushed list can drop
   * the id before the decision's own answer arrives), and a list read before the decision adds no twin.
   */
  const decided = new Set();
  // Each line is the whole pending list: rows are added and removed to match it, and a row the operator is
  // typing in (or just decided, showing its outcome) stays until they leave it.
  const update = (data) => {
    status.replaceChildren();
    if (data.broker === false)
      status.append(el("p", { class: "meta" }, "This gateway asks for no approvals."));
    const ids = new Set(data.approvals.map((pending) => pending.id));
    for (const [id, row] of rows) {
      if (!ids.has(id) && !decided.has(id) && !row.contains(document.activeElement)) {
        row.remove();
        rows.delete(id);
      }
    }
    for (const pending of data.approvals) {
      if (rows.has(pending.id) || decided.has(pending.id)) continue;
      const row = approvalRow(pending, {
        deciding: () => decided.add(pending.id),
        failed: () => decided.delete(pending.id),
        done: () => rows.delete(pending.id),
      });
      rows.set(pending.id, row);
      list.append(row);
    }
    if (rows.size === 0 && data.broker !== false)
      status.append(el("p", { class: "meta" }, "Nothing is waiting."));
  };
  follow(
    () => "/approvals",
    (line) => {
      if (line.type === "approvals") update(line);
    },
    (error) => status.replaceChildren(problem(error)),
  );
}

/** One pending call's row; `hooks` hear when a decision is being sent, went through, or failed. */
function approvalRow(pending, hooks) {
  const noteId = `note-${pending.id}`;
  const note = el("input", { id: noteId, type: "text", maxlength: "1000" });
  const outcome = el("p", { role: "status" });
  const decide = async (decision) => {
    for (const button of row.querySelectorAll("button")) button.disabled = true;
    hooks.deciding();
    try {
      await api(`/approvals/${encodeURIComponent(pending.id)}`, {
        method: "POST",
        body: note.value ? { decision, note: note.value } : { decision },
      });
      outcome.replaceChildren(el("span", {}, decision === "allow" ? "Allowed." : "Denied."));
      hooks.done();
    } catch (error) {
      hooks.failed();
      outcome.replaceChildren(problem(error));
      for (const button of row.querySelectorAll("button")) button.disabled = false;
    }
  };
  const row = el(
    "article",
    { class: "approval", "aria-label": `Approval for ${pending.toolName}` },
    el("h2", {}, pending.toolName),
    facts([
      ["tool", pending.toolId],
      ["agent", pending.agentId],
      ["session", pending.sessionKey],
      ["key", pending.keyId],
      ["asked", when(pending.createdAt)],
      ["denied after", when(pending.expiresAt)],
    ]),
    el("pre", {}, pretty(pending.args)),
    el(
      "div",
      { class: "decision" },
      el("label", { for: noteId }, "Note (optional)", note),
      el("button", { type: "button", onclick: () => decide("allow") }, "Allow"),
      el("button", { type: "button", onclick: () => decide("deny") }, "Deny"),
    ),
    outcome,
  );
  return row;
}
