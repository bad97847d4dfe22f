// Every value shown comes from the gateway's JSON and is untrusted text (tool names, arguments, outputs,
// session text): it goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, problem, show, when } from "./dom.js";

/** The statuses a session's last run can have, as the filter offers them. */
const STATUSES = [
  ["running", "running"],
  ["completed", "completed"],
  ["requires_action", "waiting for the client"],
  ["failed", "failed"],
  ["incomplete", "incomplete (stopped or cancelled)"],
];

export async function showSessions(session) {
  const agent = el(
    "select",
    { id: "filter-agent", name: "agent" },
    el("option", { value: "" }, "every agent"),
    session.agents.map((id) => el("option", { value: id }, id)),
  );
  const text = el("input", { id: "filter-text", name: "text", type: "search", maxlength: "200" });
  const status = el(
    "select",
    { id: "filter-status", name: "status" },
    el("option", { value: "" }, "any status"),
    STATUSES.map(([value, label]) => el("option", { value }, label)),
  );
  const contains = el("input", { id: "filter-contains", name: "contains", type: "search", maxlength: "200" });
  const admin = session.scopes.includes("admin");
  const key = admin
    ? el("input", { id: "filter-key", name: "key", type: "text", maxlength: "128" })
    : undefined;
  const form = el(
    "form",
    { class: "filters", role: "search" },
    el("label", { for: "filter-agent" }, "Agent", agent),
    el("label", { for: "filter-text" }, "Session name contains", text),
    el("label", { for: "filter-status" }, "Last run", status),
    el("label", { for: "filter-contains" }, "Conversation contains", contains),
    key ? el("label", { for: "filter-key" }, "Owner key", key) : undefined,
    el("button", { type: "submit" }, "Filter"),
  );
  const body = el("tbody");
  const table = el(
    "table",
    {},
    el("caption", { class: "meta" }, "Newest first"),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ["Session", "Agent", ...(admin ? ["Owner"] : []), "Created", "Updated", "Bytes"].map((name) =>
          el("th", { scope: "col" }, name),
        ),
      ),
    ),
    body,
  );
  const said = el("div", { role: "status" });
  const more = el("button", { type: "button", hidden: true }, "More sessions");
  let after;
  const load = async (append) => {
    said.replaceChildren();
    try {
      const query = new URLSearchParams();
      if (agent.value) query.set("agent", agent.value);
      if (text.value) query.set("text", text.value);
      if (status.value) query.set("status", status.value);
      if (contains.value) query.set("contains", contains.value);
      if (key?.value) query.set("key", key.value);
      if (append && after) query.set("after", after);
      const page = await api(`/sessions?${query}`);
      if (!append) body.replaceChildren();
      for (const row of page.data) {
        const link = new URLSearchParams({ agent: row.agentId, key: row.sessionKey });
        body.append(
          el(
            "tr",
            {},
            el("td", {}, el("a", { href: `/console/session?${link}` }, row.sessionKey)),
            el("td", {}, row.agentId),
            admin ? el("td", {}, row.owner ?? "admin") : undefined,
            el("td", {}, when(row.createdAt)),
            el("td", {}, when(row.updatedAt)),
            el("td", {}, String(row.bytes)),
          ),
        );
      }
      after = page.last_id ?? undefined;
      more.hidden = !page.has_more;
      if (body.childElementCount === 0 && !page.has_more)
        said.append(el("p", { class: "meta" }, "No sessions match."));
      else if (page.data.length === 0 && page.has_more)
        said.append(
          el(
            "p",
            { class: "meta" },
            'None of the sessions searched so far match: "More sessions" searches on.',
          ),
        );
    } catch (error) {
      said.append(problem(error));
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void load(false);
  });
  more.addEventListener("click", () => void load(true));
  show("Sessions", form, table, said, more);
  await load(false);
}
