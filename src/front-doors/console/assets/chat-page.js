// The chat page: one turn at a time with an agent the key may run, its answer streamed as it happens.
// `POST /console/api/chat` answers NDJSON (one JSON frame per line, see chat-routes.ts), read here with
// `fetch` and a stream reader so the CSRF header is sent and no token is in any URL. Stop aborts the fetch:
// the gateway sees the client leave and cancels the run through its one signal.
// Every value shown (model text, tool names, descriptions, arguments, outputs) is untrusted text: it goes in
// only as text nodes, through `el()` (dom.js), never as markup.

import { api, csrfHeaders } from "./api.js";
import { el, facts, pretty, problem, show, when } from "./dom.js";
import { candidates, eventBox } from "./event-views.js";

export async function showChat(session) {
  const query = new URLSearchParams(location.search);
  const agent = el(
    "select",
    { id: "chat-agent", name: "agent" },
    session.agents.map((id) => el("option", { value: id }, id)),
  );
  if (session.agents.includes(query.get("agent"))) agent.value = query.get("agent");
  const sessionName = el("input", {
    id: "chat-session",
    name: "session",
    type: "text",
    placeholder: "a new session",
    autocomplete: "off",
    spellcheck: "false",
    maxlength: "128",
    value: query.get("session") ?? "",
  });
  const newSession = el("button", { type: "button", id: "chat-new" }, "New session");
  const input = el("textarea", { id: "chat-input", name: "input", rows: "3", required: true });
  const send = el("button", { type: "submit", id: "chat-send" }, "Send");
  const stop = el("button", { type: "button", id: "chat-stop", disabled: true }, "Stop");
  const status = el("p", { role: "status", id: "chat-status", class: "meta" });
  const log = el("div", { id: "chat-log", role: "log", "aria-live": "polite" });
  const form = el(
    "form",
    { id: "chat-form", class: "chat-form" },
    el(
      "div",
      { class: "chat-row" },
      el("label", { for: "chat-agent" }, "Agent", agent),
      el("label", { for: "chat-session" }, "Session", sessionName),
      newSession,
    ),
    el("label", { for: "chat-input" }, "Message (Ctrl+Enter sends)", input),
    el("div", { class: "chat-row" }, send, stop),
  );
  let running;
  // A control that is disabled once used (Stop, Allow, Deny) drops the focus: it goes back to the message.
  const keepFocus = () => {
    const active = document.activeElement;
    if (active === null || active === document.body || active.disabled) input.focus();
  };

  newSession.addEventListener("click", () => {
    sessionName.value = "";
    log.replaceChildren();
    status.replaceChildren("The next message starts a new session.");
    input.focus();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  stop.addEventListener("click", () => running?.abort());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value;
    if (running !== undefined || text.trim() === "") return;
    running = new AbortController();
    send.disabled = true;
    stop.disabled = false;
    input.value = "";
    // Send is disabled while the run goes: focus stays in the message field (Tab reaches Stop from there).
    input.focus();
    status.replaceChildren("Running…");
    const turn = chatTurn(text, keepFocus);
    log.append(turn.node);
    try {
      const ended = await streamTurn(
        { agent: agent.value, session: sessionName.value.trim() || undefined, input: text },
        running.signal,
        (frame) => {
          if (frame.type === "start") sessionName.value = frame.session;
          turn.draw(frame);
        },
      );
      status.replaceChildren(ended ? `Run ${ended.status}.` : "The answer ended without its end.");
    } catch (error) {
      if (running.signal.aborted) {
        turn.stopped();
        status.replaceChildren("Stopped: the run was cancelled.");
      } else {
        turn.node.append(problem(error));
        status.replaceChildren("The message was not run.");
      }
    } finally {
      running = undefined;
      send.disabled = false;
      stop.disabled = true;
      if (sessionName.value !== "") turn.node.append(timelineLink(agent.value, sessionName.value));
      keepFocus();
    }
  });

  show(
    "Chat",
    el(
      "p",
      { class: "meta" },
      "Talk to an agent; its searches, candidates and calls appear as they happen. " +
        "Leave the session empty to start a new one, or name one of your sessions to continue it.",
    ),
    session.agents.length === 0
      ? el("p", { class: "message bad", role: "alert" }, "This key may run no agent.")
      : undefined,
    form,
    status,
    log,
  );
  input.focus();
}

/** Posts one turn and hands each frame to `onFrame` as it arrives; resolves with the `end` frame. */
async function streamTurn(body, signal, onFrame) {
  const response = await fetch("/console/api/chat", {
    method: "POST",
    headers: { ...csrfHeaders(), "content-type": "application/json" },
    credentials: "same-origin",
    cache: "no-store",
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || response.body === null) {
    let data;
    try {
      data = await response.json();
    } catch {
      data = undefined;
    }
    const error = new Error(data?.error?.message ?? `the gateway answered ${response.status}`);
    error.code = data?.error?.code;
    throw error;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let ended;
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
      if (line.trim() === "") continue;
      const frame = JSON.parse(line);
      if (frame.type === "end") ended = frame;
      onFrame(frame);
    }
  }
  return ended;
}

/** One turn in the log: the user's text, then the agent's answer and its calls in the order they happened. */
function chatTurn(text, keepFocus) {
  const answer = el("div", { class: "chat-answer" });
  const node = el(
    "section",
    { class: "chat-turn", "aria-label": "Chat turn" },
    el("article", { class: "event input" }, el("h3", {}, "You"), el("pre", {}, text)),
    answer,
  );
  const calls = new Map();
  // Calls started and not finished: an approval waits inside one of them (the newest), and shows there.
  const open = new Map();
  const approvals = new Map();
  let textBlock;
  const append = (box) => {
    textBlock = undefined;
    answer.append(box);
    return box;
  };
  const draw = (frame) => {
    switch (frame.type) {
      case "start":
        append(el("p", { class: "meta" }, `session ${frame.session} · ${frame.model} · ${frame.runId}`));
        return;
      case "text":
        if (textBlock === undefined) {
          textBlock = el("pre", { class: "chat-text" });
          answer.append(el("article", { class: "event output" }, el("h3", {}, "Agent"), textBlock));
        }
        textBlock.append(frame.delta);
        return;
      case "call": {
        const box = append(callBox(frame));
        calls.set(frame.callId, box);
        open.set(frame.callId, box);
        return;
      }
      case "result": {
        open.delete(frame.callId);
        const box = calls.get(frame.callId) ?? append(callBox(frame));
        box.append(...resultView(frame));
        if (frame.isError) box.classList.add("error");
        return;
      }
      case "search": {
        const box = calls.get(frame.callId);
        box?.append(
          el("p", { class: "meta" }, `${frame.hits} candidate${frame.hits === 1 ? "" : "s"} returned`),
        );
        return;
      }
      case "approval": {
        const box = approvalBox(frame, keepFocus);
        const call = [...open.values()].at(-1);
        if (call === undefined) append(box);
        else call.append(box);
        approvals.set(frame.id, box);
        return;
      }
      case "approval-closed":
        approvals.get(frame.id)?.close();
        return;
      case "error":
        append(eventBox("error", "Error", undefined, el("p", {}, frame.code), el("pre", {}, frame.message)));
        return;
      case "end":
        for (const box of approvals.values()) box.close();
        append(
          eventBox(
            frame.status === "completed" ? "summary" : "error",
            `Run ${frame.status}`,
            undefined,
            frame.error ? el("pre", {}, `${frame.error.code}: ${frame.error.message}`) : undefined,
          ),
        );
        return;
      default:
        return;
    }
  };
  const stopped = () => {
    for (const box of approvals.values()) box.close();
    append(eventBox("error", "Stopped", undefined, el("p", {}, "The run was cancelled from this page.")));
  };
  return { node, draw, stopped };
}

/** A call as it starts: a search with its query, a describe with its tool, a call with its target. */
function callBox(frame) {
  const args = frame.arguments ?? {};
  if (frame.name === "tool_search") {
    const queries = Array.isArray(args.queries)
      ? args.queries.map((query) => String(query?.query ?? query))
      : [String(args.query ?? "(none)")];
    return eventBox(
      "search",
      "Search",
      undefined,
      queries.map((query) => el("p", {}, "Query: ", el("q", {}, query))),
    );
  }
  if (frame.name === "tool_describe") {
    return eventBox("call", `Describe ${String(args.id ?? "")}`, undefined);
  }
  if (frame.name === "tool_call") {
    return eventBox(
      "call",
      `Call target ${String(args.id ?? "")}`,
      undefined,
      el("p", { class: "meta" }, "Arguments"),
      el("pre", {}, pretty(args.args ?? {})),
    );
  }
  return eventBox(
    "call",
    `Call ${frame.name}`,
    undefined,
    facts([
      ["tool", frame.toolId],
      ["source", frame.source],
    ]),
    el("p", { class: "meta" }, "Arguments"),
    el("pre", {}, pretty(args)),
  );
}

function resultView(frame) {
  if (frame.name === "tool_search" && !frame.isError) {
    return [el("p", { class: "meta" }, "Candidates the model saw:"), candidates(frame.output)];
  }
  return [
    el("p", { class: "meta" }, frame.isError ? "Failed" : "Result"),
    el("pre", {}, pretty(frame.output)),
  ];
}

/** An approval the run waits on, decided here with Allow or Deny (`POST /console/api/approvals/:id`). */
function approvalBox(frame, keepFocus) {
  const outcome = el("p", { role: "status" });
  const allow = el("button", { type: "button" }, "Allow");
  const deny = el("button", { type: "button" }, "Deny");
  const buttons = [allow, deny];
  let decided = false;
  const decide = async (decision) => {
    for (const button of buttons) button.disabled = true;
    try {
      await api(`/approvals/${encodeURIComponent(frame.id)}`, { method: "POST", body: { decision } });
      decided = true;
      outcome.replaceChildren(decision === "allow" ? "Allowed." : "Denied.");
      keepFocus();
    } catch (error) {
      outcome.replaceChildren(problem(error));
      for (const button of buttons) button.disabled = false;
    }
  };
  allow.addEventListener("click", () => decide("allow"));
  deny.addEventListener("click", () => decide("deny"));
  const box = eventBox(
    "approval",
    `Waiting for approval: ${frame.toolName}`,
    undefined,
    facts([
      ["tool", frame.toolId],
      ["denied after", when(frame.expiresAt)],
    ]),
    el("pre", {}, pretty(frame.args)),
    el("div", { class: "decision" }, allow, deny),
    outcome,
  );
  box.close = () => {
    for (const button of buttons) button.disabled = true;
    if (!decided && outcome.textContent === "") outcome.replaceChildren("No longer waiting.");
  };
  return box;
}

function timelineLink(agent, session) {
  return el(
    "p",
    {},
    el(
      "a",
      { href: `/console/session?${new URLSearchParams({ agent, key: session })}` },
      "Open this session's timeline",
    ),
  );
}
