// Every value shown comes from the gateway's JSON and is untrusted text (tool names, arguments, outputs,
// session text): it goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, facts, pretty, problem, show, when } from "./dom.js";

const POLL_MS = 2000;

export async function showApprovals() {
  const list = el("div", { id: "approvals", "aria-live": "polite" });
  const status = el("div", { role: "status" });
  show(
    "Approvals",
    el("p", { class: "meta" }, "Calls waiting for a decision; the list refreshes every 2 seconds."),
    status,
    list,
  );
  const rows = new Map();
  const refresh = async () => {
    try {
      const data = await api("/approvals");
      status.replaceChildren();
      if (data.broker === false)
        status.append(el("p", { class: "meta" }, "This gateway asks for no approvals."));
      const ids = new Set(data.approvals.map((pending) => pending.id));
      for (const [id, row] of rows) {
        if (!ids.has(id) && !row.contains(document.activeElement)) {
          row.remove();
          rows.delete(id);
        }
      }
      for (const pending of data.approvals) {
        if (rows.has(pending.id)) continue;
        const row = approvalRow(pending, () => {
          rows.delete(pending.id);
        });
        rows.set(pending.id, row);
        list.append(row);
      }
      if (rows.size === 0 && data.broker !== false)
        status.append(el("p", { class: "meta" }, "Nothing is waiting."));
    } catch (error) {
      status.replaceChildren(problem(error));
    }
    setTimeout(refresh, POLL_MS);
  };
  await refresh();
}

function approvalRow(pending, forget) {
  const noteId = `note-${pending.id}`;
  const note = el("input", { id: noteId, type: "text", maxlength: "1000" });
  const outcome = el("p", { role: "status" });
  const decide = async (decision) => {
    for (const button of row.querySelectorAll("button")) button.disabled = true;
    try {
      await api(`/approvals/${encodeURIComponent(pending.id)}`, {
        method: "POST",
        body: note.value ? { decision, note: note.value } : { decision },
      });
      outcome.replaceChildren(el("span", {}, decision === "allow" ? "Allowed." : "Denied."));
      forget();
    } catch (error) {
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
