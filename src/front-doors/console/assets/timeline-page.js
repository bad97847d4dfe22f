// Every value shown comes from the gateway's JSON and is untrusted text (tool names, arguments, outputs,
// session text): it goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, facts, pretty, problem, show } from "./dom.js";
import { candidates, eventBox } from "./event-views.js";

/** How often the timeline of a session with a run in progress is read again. */
const FOLLOW_MS = 2000;

export async function showTimeline(session) {
  const query = new URLSearchParams(location.search);
  const path = `/session-events?${new URLSearchParams({ agent: query.get("agent") ?? "main", key: query.get("key") ?? "" })}`;
  let data;
  try {
    data = await api(path);
  } catch (error) {
    show("Session", el("p", {}, el("a", { href: "/console/sessions" }, "All sessions")), problem(error));
    return;
  }
  const chat = mayChat(session, data.agentId) ? data : undefined;
  renderTimeline(data, chat);
  // While a run is in progress (the log does not end with a run summary), the timeline follows it.
  let shown = data.events.length;
  const follow = async () => {
    let next;
    try {
      next = await api(path);
    } catch {
      return; // signed out, or the gateway went away: the page stays as it was
    }
    if (next.events.length !== shown) {
      shown = next.events.length;
      renderTimeline(next, chat);
    }
    if (inProgress(next)) setTimeout(follow, FOLLOW_MS);
  };
  if (inProgress(data)) setTimeout(follow, FOLLOW_MS);
}

function inProgress(data) {
  const last = data.events.at(-1);
  return last !== undefined && last.type !== "run-summary" && last.type !== "session";
}

/** True when the signed-in key may run the session's agent, so the chat can continue the session. */
function mayChat(session, agentId) {
  const scopes = session?.scopes ?? [];
  return (scopes.includes("runs") || scopes.includes("admin")) && (session?.agents ?? []).includes(agentId);
}

function renderTimeline(data, chat) {
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
      chat === undefined ? undefined : " · ",
      chat === undefined
        ? undefined
        : el(
            "a",
            {
              href: `/console/chat?${new URLSearchParams({ agent: chat.agentId, session: chat.sessionKey })}`,
              id: "continue-chat",
            },
            "Continue in chat",
          ),
    ),
    inProgress(data)
      ? el(
          "p",
          { role: "status", class: "meta", id: "in-progress" },
          "A run is in progress: this timeline follows it (read again every 2 seconds).",
        )
      : undefined,
    sections,
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
