// Drawing shared by the timeline and the chat: one box per run event, and a search's candidates. Every value
// is untrusted text (tool names, descriptions, outputs): it goes in only as text nodes, through `el()`.

import { el, when } from "./dom.js";

/** One event of a run: a box with a title, when it happened (left out when `at` is undefined) and its content. */
export function eventBox(kind, title, at, ...content) {
  return el(
    "article",
    { class: `event ${kind}` },
    el("h3", {}, title, at === undefined ? undefined : el("span", { class: "meta" }, ` ${when(at)}`)),
    ...content,
  );
}

/**
 * The candidates a `tool_search` returned, from its output text (the JSON list the model saw), as a list; any
 * other output as it is.
 */
export function candidates(output) {
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
