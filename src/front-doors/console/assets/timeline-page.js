// Every value shown comes from the gateway's JSON and is untrusted text (tool names, arguments, outputs,
// session text): it goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, facts, pretty, problem, show, when } from "./dom.js";
import { candidates, eventBox } from "./event-views.js";
import { follow } from "./live.js";

export async function showTimeline(session) {
  const query = new URLSearchParams(location.search);
  const target = { agent: query.get("agent") ?? "main", key: query.get("key") ?? "" };
  let data;
  try {
    data = await api(`/session-events?${new URLSearchParams(target)}`);
  } catch (error) {
    show("Session", el("p", {}, el("a", { href: "/console/sessions" }, "All sessions")), problem(error));
    return;
  }
  const chat = mayChat(session, data.agentId) ? data : undefined;
  const timeline = renderTimeline(data, chat);
  // New events are pushed by the gateway (a live stream) and appended where they belong: nothing already
  // drawn is redrawn, so the reader's place on the page stays.
  follow(
    () => `/session?${new URLSearchParams({ ...target, after: String(timeline.shown()) })}`,
    (line) => {
      if (line.type !== "events") return;
      const fresh = line.events.slice(Math.max(0, timeline.shown() - line.from));
      if (line.from <= timeline.shown() && fresh.length > 0) timeline.append(fresh);
    },
    (error) => timeline.stopped(error),
  );
}

function inProgress(events) {
  const last = events.at(-1);
  return last !== undefined && last.type !== "run-summary" && last.type !== "session";
}

/** True when the signed-in key may run the session's agent, so the chat can continue the session. */
function mayChat(session, agentId) {
  const scopes = session?.scopes ?? [];
  return (scopes.includes("runs") || scopes.includes("admin")) && (session?.agents ?? []).includes(agentId);
}

/** Draws the session's timeline grouped by run; `append` adds later events to it. */
function renderTimeline(data, chat) {
  const events = [];
  const calls = new Map();
  const sections = el("div", { id: "timeline" });
  const status = el("div", {});
  let current;
  let runNumber = 0;
  const showStatus = () => {
    status.replaceChildren(
      inProgress(events)
        ? el(
            "p",
            { role: "status", class: "meta", id: "in-progress" },
            "A run is in progress: this timeline shows each event as it is written.",
          )
        : "",
    );
  };
  const append = (added) => {
    for (const event of added) {
      events.push(event);
      if (event.type === "assistant-output") {
        for (const item of event.items ?? []) if (item.type === "function_call") calls.set(item.callId, item);
      }
      const runId = event.runId ?? "";
      if (current === undefined || current.runId !== runId) {
        if (runId) runNumber += 1;
        const label = runId ? `Run ${runNumber}` : "Session";
        current = {
          runId,
          section: el(
            "section",
            { "aria-label": label },
            el("h2", {}, label, runId ? el("span", { class: "meta" }, ` ${runId}`) : undefined),
          ),
        };
        sections.append(current.section);
      }
      current.section.append(timelineEvent(event, calls));
    }
    showStatus();
  };
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
    status,
    sections,
  );
  append(data.events);
  return {
    append,
    shown: () => events.length,
    stopped: (error) => status.replaceChildren(problem(error)),
  };
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
    case "approval":
      return eventBox(
        event.verdict === "allow" ? "summary" : "error",
        `Approval: ${event.name} ${event.verdict === "allow" ? "allowed" : "denied"}`,
        event.at,
        el(
          "p",
          {},
          event.decidedBy ? `decided by key ${event.decidedBy}` : "decided by no key",
          ` · ${event.outcome}`,
        ),
        facts([
          ["tool", event.toolId],
          ["call", event.callId],
          ["asked", when(event.requestedAt)],
          ["decided", when(event.decidedAt)],
        ]),
        event.note ? el("p", {}, "Note: ", el("q", {}, event.note)) : undefined,
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
