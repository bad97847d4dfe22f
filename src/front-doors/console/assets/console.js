// The toolsift operator console: one script for every page, served by the gateway (no other origin is
// contacted). Everything shown comes from the gateway's JSON and is untrusted text (tool names, arguments,
// outputs, session text): it is only ever put in the page as text nodes (`el()` below), never as markup.

const CSRF_HEADER = "x-console-csrf";
const POLL_MS = 2000;
let csrf = "bootstrap";

/** An element with attributes and children; string children become text nodes, so no text is parsed as HTML. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(
      typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child,
    );
  }
  return node;
}

/** Calls the console's API with the session's CSRF token; throws an Error with the gateway's message. */
async function api(path, options = {}) {
  const headers = { [CSRF_HEADER]: csrf };
  const init = { method: options.method ?? "GET", headers, credentials: "same-origin", cache: "no-store" };
  if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(`/console/api${path}`, init);
  let data;
  try {
    data = await response.json();
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    const error = new Error(data?.error?.message ?? `the gateway answered ${response.status}`);
    error.status = response.status;
    error.code = data?.error?.code;
    throw error;
  }
  return data;
}

function main() {
  return document.getElementById("main");
}

/** Replaces the page's content, sets its title and moves focus to it (keyboard and screen-reader users). */
function show(title, ...content) {
  document.title = `${title} · toolsift console`;
  main().replaceChildren(el("h1", {}, title), ...content.flat().filter((node) => node !== undefined));
}

function problem(error) {
  return el("p", { class: "message bad", role: "alert" }, String(error?.message ?? error));
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso ?? "") : date.toLocaleString();
}

function pretty(value) {
  if (typeof value === "string") {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? "";
}

async function start() {
  let session;
  try {
    session = await api("/session");
  } catch (error) {
    show("Console unavailable", problem(error));
    return;
  }
  csrf = session.csrf;
  const path = location.pathname.replace(/\/+$/u, "") || "/console";
  if (!session.signedIn) {
    if (path !== "/console/login") location.replace("/console/login");
    else showLogin();
    return;
  }
  if (path === "/console" || path === "/console/login") {
    location.replace("/console/sessions");
    return;
  }
  showChrome(session, path);
  if (path === "/console/sessions") await showSessions(session);
  else if (path === "/console/session") await showTimeline(session);
  else if (path === "/console/approvals") await showApprovals(session);
}

function showChrome(session, path) {
  document.getElementById("nav").hidden = false;
  const may = (scope) => session.scopes.includes("admin") || session.scopes.includes(scope);
  // Links to pages the key cannot read are left out (the API refuses them anyway).
  document.getElementById("nav-sessions").hidden = !may("sessions:read");
  document.getElementById("nav-approvals").hidden = !may("approvals") || !session.approvals;
  for (const link of document.querySelectorAll("#nav a")) {
    if (link.getAttribute("href") === path) link.setAttribute("aria-current", "page");
  }
  const who = document.getElementById("who");
  who.textContent = session.keyed
    ? `key ${session.keyId} (${session.scopes.join(", ")})`
    : "local caller (no keys configured)";
  const logout = document.getElementById("logout");
  logout.hidden = !session.keyed;
  logout.addEventListener("click", async () => {
    try {
      await api("/logout", { method: "POST", body: {} });
    } finally {
      location.assign("/console/login");
    }
  });
}

function showLogin() {
  const error = el("p", { role: "alert", class: "message bad", hidden: true });
  const token = el("input", {
    id: "token",
    name: "token",
    type: "password",
    autocomplete: "off",
    required: true,
    spellcheck: "false",
  });
  const form = el(
    "form",
    { method: "post", action: "/console/api/login", class: "filters" },
    el("label", { for: "token" }, "Key token", token),
    el("button", { type: "submit" }, "Sign in"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      await api("/login", { method: "POST", body: { token: token.value } });
      token.value = "";
      location.assign("/console/sessions");
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      token.focus();
    }
  });
  show(
    "Sign in",
    el(
      "p",
      {},
      "Paste the token of one of this gateway's keys (gateway.auth.keys). It is sent once, in the body of a " +
        "same-origin request, and is not kept by the browser: the console keeps a session cookie instead.",
    ),
    form,
    error,
  );
  token.focus();
}

// ---- Sessions -------------------------------------------------------------------------------------------

async function showSessions(session) {
  const agent = el(
    "select",
    { id: "filter-agent", name: "agent" },
    el("option", { value: "" }, "every agent"),
    session.agents.map((id) => el("option", { value: id }, id)),
  );
  const text = el("input", { id: "filter-text", name: "text", type: "search", maxlength: "200" });
  const form = el(
    "form",
    { class: "filters", role: "search" },
    el("label", { for: "filter-agent" }, "Agent", agent),
    el("label", { for: "filter-text" }, "Session name contains", text),
    el("button", { type: "submit" }, "Filter"),
  );
  const admin = session.scopes.includes("admin");
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
  const status = el("div", { role: "status" });
  const more = el("button", { type: "button", hidden: true }, "More sessions");
  let after;
  const load = async (append) => {
    status.replaceChildren();
    try {
      const query = new URLSearchParams();
      if (agent.value) query.set("agent", agent.value);
      if (text.value) query.set("text", text.value);
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
      if (body.childElementCount === 0) status.append(el("p", { class: "meta" }, "No sessions match."));
    } catch (error) {
      status.append(problem(error));
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void load(false);
  });
  more.addEventListener("click", () => void load(true));
  show("Sessions", form, table, status, more);
  await load(false);
}

// ---- One session's timeline ---------------------------------------------------------------------------

async function showTimeline() {
  const query = new URLSearchParams(location.search);
  const agentId = query.get("agent") ?? "main";
  const key = query.get("key") ?? "";
  let data;
  try {
    data = await api(`/session-events?${new URLSearchParams({ agent: agentId, key })}`);
  } catch (error) {
    show("Session", el("p", {}, el("a", { href: "/console/sessions" }, "All sessions")), problem(error));
    return;
  }
  const calls = new Map();
  for (const event of data.events) {
    if (event.type !== "assistant-output") continue;
    for (const item of event.items ?? []) if (item.type === "function_call") calls.set(item.callId, item);
  }
  const runs = [];
  for (const event of data.events) {
    const runId = event.runId ?? "";
    let run = runs.at(-1);
    if (run === undefined || run.runId !== runId) {
      run = { runId, events: [] };
      runs.push(run);
    }
    run.events.push(event);
  }
  let runNumber = 0;
  const sections = runs.map((run) => {
    if (run.runId) runNumber += 1;
    return el(
      "section",
      { "aria-label": run.runId ? `Run ${runNumber}` : "Session" },
      el(
        "h2",
        {},
        run.runId ? `Run ${runNumber}` : "Session",
        run.runId ? el("span", { class: "meta" }, ` ${run.runId}`) : undefined,
      ),
      run.events.map((event) => timelineEvent(event, calls)),
    );
  });
  show(
    `Session ${data.sessionKey}`,
    el(
      "p",
      { class: "meta" },
      `agent ${data.agentId} · `,
      el("a", { href: "/console/sessions" }, "All sessions"),
    ),
    sections,
  );
}

function eventBox(kind, title, at, ...content) {
  return el(
    "article",
    { class: `event ${kind}` },
    el("h3", {}, title, el("span", { class: "meta" }, ` ${when(at)}`)),
    ...content,
  );
}

function facts(pairs) {
  return el(
    "p",
    { class: "meta" },
    pairs
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([name, value]) => `${name} ${value}`)
      .join(" · "),
  );
}

/** A search's output as a list of candidates (id, then description) when it is the usual JSON list; else as it is. */
function candidates(output) {
  let list;
  try {
    list = JSON.parse(output);
  } catch {
    list = undefined;
  }
  if (!Array.isArray(list) || !list.every((item) => typeof item === "object" && item !== null)) {
    return el("pre", {}, output);
  }
  if (list.length === 0) return el("p", {}, "none");
  return el(
    "ol",
    { class: "candidates" },
    list.map((item) =>
      el(
        "li",
        {},
        el("code", {}, String(item.id ?? item.name ?? "")),
        item.description ? ` ${String(item.description)}` : "",
        item.input ? el("span", { class: "meta" }, ` input ${String(item.input)}`) : undefined,
      ),
    ),
  );
}

function timelineEvent(event, calls) {
  switch (event.type) {
    case "session":
      return eventBox(
        "info",
        "Session opened",
        event.at,
        facts([
          ["agent", event.agentId],
          ["key", event.keyId],
        ]),
      );
    case "user-input":
      return eventBox(
        "input",
        "User input",
        event.at,
        (event.items ?? []).map((item) =>
          item.type === "message"
            ? el("pre", {}, item.text)
            : item.type === "function_call_output"
              ? el(
                  "div",
                  {},
                  el("p", { class: "meta" }, `client tool output for ${item.callId}`),
                  el("pre", {}, item.output),
                )
              : el("pre", {}, pretty(item)),
        ),
        event.omittedHostedTools?.length
          ? el("p", { class: "meta" }, `hosted tools left out: ${event.omittedHostedTools.join(", ")}`)
          : undefined,
      );
    case "model-request": {
      const usage = event.usage ?? {};
      return eventBox(
        "request",
        `Model request · ${event.provider}/${event.model}`,
        event.at,
        facts([
          ["declared tools", event.declaredToolCount],
          ["request bytes", event.requestBytes],
          ["system prompt chars", event.systemPromptChars],
          ["input tokens", usage.inputTokens],
          ["output tokens", usage.outputTokens],
          ["cache reads", usage.cacheReadInputTokens],
          ["cache writes", usage.cacheCreationInputTokens],
        ]),
        el("p", {}, "Declared: ", (event.declaredTools ?? []).join(", ") || "none"),
        event.trimmed
          ? el(
              "p",
              { class: "meta" },
              `history trimmed: ${event.trimmed.items} items, ${event.trimmed.chars} characters left out`,
            )
          : undefined,
      );
    }
    case "assistant-output":
      return eventBox(
        "output",
        "Model output",
        event.at,
        (event.items ?? []).map((item) =>
          item.type === "function_call"
            ? el(
                "div",
                {},
                el("p", {}, `calls ${item.name}`, el("span", { class: "meta" }, ` ${item.callId}`)),
                el("pre", {}, pretty(item.arguments)),
              )
            : item.type === "message"
              ? el("pre", {}, item.text)
              : el("pre", {}, pretty(item)),
        ),
      );
    case "tool-result": {
      const call = calls.get(event.callId);
      if (event.name === "tool_search") {
        let query;
        try {
          query = JSON.parse(call?.arguments ?? "{}").query;
        } catch {
          query = undefined;
        }
        return eventBox(
          event.isError ? "error" : "search",
          "Search",
          event.at,
          el("p", {}, "Query: ", el("q", {}, String(query ?? "(none)"))),
          el("p", { class: "meta" }, "Candidates the model saw:"),
          candidates(event.output),
        );
      }
      return eventBox(
        event.isError ? "error" : "result",
        `${event.isError ? "Failed: " : "Result of "}${event.name}`,
        event.at,
        facts([
          ["tool", event.toolId],
          ["source", event.source],
        ]),
        el("pre", {}, event.output),
      );
    }
    case "target-activity":
      return eventBox(
        event.isError ? "error" : "call",
        `Call target ${event.name}`,
        event.at,
        facts([
          ["tool", event.toolId],
          ["source", event.source],
        ]),
        el("p", { class: "meta" }, "Arguments"),
        el("pre", {}, pretty(event.arguments)),
        el("p", { class: "meta" }, "Result"),
        el("pre", {}, event.result),
      );
    case "run-summary":
      return eventBox(
        event.status === "failed" ? "error" : "summary",
        `Run ${event.status}`,
        event.at,
        facts([
          ["turns", event.turns],
          ["duration ms", event.durationMs],
        ]),
        event.error ? el("pre", {}, event.error) : undefined,
        event.handoffs?.length
          ? el(
              "p",
              { class: "meta" },
              `handed to the client: ${event.handoffs.map((h) => h.name).join(", ")}`,
            )
          : undefined,
      );
    default:
      return eventBox("info", String(event.type), event.at, el("pre", {}, pretty(event)));
  }
}

// ---- Approvals -----------------------------------------------------------------------------------------

async function showApprovals() {
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

void start();
