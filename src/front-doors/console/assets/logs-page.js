// The Logs page (admin only): the gateway's recent log lines, then a live tail of new ones. Every line is
// untrusted text (paths, names and messages a client, model or tool chose): it goes into the page only as text
// nodes, through `el()` (dom.js), never as markup.
//
// The tail is `GET /console/api/logs/stream?after=&text=` read with fetch() (so the CSRF header is sent, and
// the URL holds only the cursor and the filter): NDJSON frames `open`, `line`, `missed`, `heartbeat`, `end`.

import { api } from "./api.js";
import { el, problem, show } from "./dom.js";

/** Lines kept in the page; the oldest are removed past it. */
const MAX_SHOWN_LINES = 1000;
/** Wait before opening the tail again after it broke (not after an `end`). */
const RECONNECT_MS = 3000;
/** How close to the bottom (px) the reader must be for new lines to scroll the list. */
const FOLLOW_SLACK_PX = 40;

export async function showLogs(session) {
  const filter = el("input", {
    id: "logs-filter",
    name: "text",
    type: "search",
    placeholder: "text in the line",
    autocomplete: "off",
  });
  const form = el(
    "form",
    { class: "filters" },
    el("label", { for: "logs-filter" }, "Filter", filter),
    el("button", { type: "submit" }, "Filter"),
  );
  const pause = el("button", { type: "button", id: "logs-pause", "aria-pressed": "false" }, "Pause");
  const status = el("p", { id: "logs-status", class: "meta", role: "status" }, "Loading…");
  const list = el("ol", { id: "log-lines", class: "log-lines", "aria-live": "off" });
  const view = el("div", { class: "log-view", tabindex: "0", "aria-label": "Log lines" }, list);

  let cursor = 0;
  let text = "";
  let paused = false;
  let tail; // the AbortController of the open tail
  let retry; // the reconnect timer

  const nearBottom = () => view.scrollHeight - view.scrollTop - view.clientHeight <= FOLLOW_SLACK_PX;
  const add = (nodes) => {
    if (nodes.length === 0) return;
    const follow = nearBottom();
    list.append(...nodes);
    while (list.childElementCount > MAX_SHOWN_LINES) list.firstElementChild.remove();
    if (follow) view.scrollTop = view.scrollHeight;
  };

  const stopTail = () => {
    clearTimeout(retry);
    tail?.abort();
    tail = undefined;
  };

  const openTail = async () => {
    stopTail();
    const controller = new AbortController();
    tail = controller;
    const query = new URLSearchParams({ after: String(cursor) });
    if (text !== "") query.set("text", text);
    try {
      const response = await fetch(`/console/api/logs/stream?${query}`, {
        headers: { "x-console-csrf": session.csrf },
        credentials: "same-origin",
        cache: "no-store",
        signal: controller.signal,
      });
      if (!response.ok) {
        const body = await response.json().catch(() => undefined);
        status.textContent = `The live tail was refused: ${body?.error?.message ?? `the gateway answered ${response.status}`}`;
        return;
      }
      status.textContent = "Following new lines.";
      const ended = await readFrames(response.body, (frame) => {
        if (frame.type === "line") {
          cursor = frame.seq;
          add([lineView(frame)]);
        } else if (frame.type === "missed") {
          add([
            el(
              "li",
              { class: "log-missed" },
              `… ${frame.count} lines were dropped before they could be shown`,
            ),
          ]);
        } else if (frame.type === "open") {
          cursor = Math.max(cursor, frame.next);
        } else if (frame.type === "end") {
          status.textContent = `The live tail ended: ${frame.reason}`;
        }
      });
      if (ended || controller.signal.aborted) return;
    } catch {
      if (controller.signal.aborted) return;
    }
    if (tail !== controller) return;
    status.textContent = "The live tail broke; opening it again…";
    retry = setTimeout(() => void openTail(), RECONNECT_MS);
  };

  const load = async () => {
    stopTail();
    text = filter.value.trim();
    try {
      const page = await api(`/logs${text === "" ? "" : `?${new URLSearchParams({ text })}`}`);
      list.replaceChildren();
      add(page.lines.map(lineView));
      view.scrollTop = view.scrollHeight;
      cursor = page.next;
      if (page.lines.length === 0) status.textContent = "No line matches yet.";
    } catch (error) {
      status.replaceChildren(problem(error));
      return;
    }
    if (!paused) await openTail();
    else status.textContent = "Paused.";
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void load();
  });
  pause.addEventListener("click", () => {
    paused = !paused;
    pause.textContent = paused ? "Resume" : "Pause";
    pause.setAttribute("aria-pressed", String(paused));
    if (paused) {
      stopTail();
      status.textContent = "Paused: new lines are not shown until you resume.";
    } else void openTail();
  });
  // Leaving the page (another console page, a reload) closes the tail.
  addEventListener("pagehide", stopTail);

  show(
    "Logs",
    el(
      "p",
      { class: "meta" },
      `The gateway's recent log lines (already redacted), newest last; new lines appear as they are written. The page keeps the last ${MAX_SHOWN_LINES}.`,
    ),
    form,
    el("p", {}, pause),
    status,
    view,
  );
  await load();
}

/** Reads NDJSON frames until the stream ends; true when it ended with an `end` frame. */
async function readFrames(body, onFrame) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let ended = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return ended;
    buffered += value;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line !== "") {
        const frame = JSON.parse(line);
        if (frame.type === "end") ended = true;
        onFrame(frame);
      }
      newline = buffered.indexOf("\n");
    }
  }
}

function lineView(line) {
  const time = new Date(line.time);
  return el(
    "li",
    { class: `log-line${line.level ? ` log-${line.level}` : ""}`, "data-seq": line.seq },
    el("time", { datetime: line.time }, Number.isNaN(time.getTime()) ? "" : time.toLocaleTimeString()),
    " ",
    el("span", { class: "log-level" }, line.level ?? ""),
    " ",
    el("span", { class: "log-text" }, line.text),
  );
}
