// Every value shown comes from the gateway's JSON and is untrusted text (provider ids, a storage reason): it
// goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, problem, show } from "./dom.js";

export async function showHealth() {
  const result = el("div", { id: "health" });
  const refresh = el("button", { type: "button" }, "Refresh");
  const load = async () => {
    try {
      result.replaceChildren(...healthView(await api("/health")));
    } catch (error) {
      result.replaceChildren(problem(error));
    }
  };
  refresh.addEventListener("click", () => void load());
  show(
    "Health",
    el("p", { class: "meta" }, "As /healthz answers: storage, draining, and each provider's last request."),
    refresh,
    result,
  );
  await load();
}

function healthView(health) {
  const state = health.ok
    ? "Healthy: the gateway takes runs and its state can be written."
    : health.draining
      ? "Draining: the gateway is stopping and takes no new runs."
      : "Unhealthy: the gateway's state cannot be written.";
  const providers = Object.entries(health.providers ?? {});
  return [
    el("p", { class: health.ok ? "message" : "message bad", role: "status" }, state),
    health.reason ? el("pre", {}, String(health.reason)) : undefined,
    el("h2", {}, "Providers"),
    providers.length === 0
      ? el("p", { class: "meta" }, "No provider is configured.")
      : el(
          "table",
          {},
          el(
            "thead",
            {},
            el("tr", {}, el("th", { scope: "col" }, "Provider"), el("th", { scope: "col" }, "Last request")),
          ),
          el(
            "tbody",
            {},
            providers.map(([id, status]) => el("tr", {}, el("td", {}, id), el("td", {}, String(status)))),
          ),
        ),
  ].filter((node) => node !== undefined);
}
