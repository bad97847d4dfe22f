// Every value shown comes from the gateway's JSON and is untrusted text (provider ids, a storage reason): it
// goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, problem, show } from "./dom.js";

export async function showHealth() {
  const result = el("div", { id: "health" });
  const servers = el("section", { id: "health-servers", "aria-labelledby": "health-servers-title" });
  const checks = el("section", { id: "health-checks", "aria-labelledby": "health-checks-title" });
  const refresh = el("button", { type: "button" }, "Refresh");
  const load = async () => {
    const [health, details] = await Promise.allSettled([api("/health"), api("/health/checks")]);
    result.replaceChildren(
      ...(health.status === "fulfilled" ? healthView(health.value) : [problem(health.reason)]),
    );
    if (details.status === "fulfilled") {
      servers.replaceChildren(...serversView(details.value));
      checks.replaceChildren(...checksView(details.value));
    } else {
      servers.replaceChildren(problem(details.reason));
      checks.replaceChildren();
    }
  };
  refresh.addEventListener("click", () => void load());
  show(
    "Health",
    el(
      "p",
      { class: "meta" },
      "As /healthz answers: storage, draining, and each provider's last request; then the MCP servers and the checks toolsift doctor makes that apply to a running gateway.",
    ),
    refresh,
    result,
    servers,
    checks,
  );
  await load();
}

function serversView(details) {
  const title = el("h2", { id: "health-servers-title" }, "MCP servers");
  if (!details.available) return [title, el("p", { class: "meta" }, "This gateway reports no MCP servers.")];
  if (details.servers.length === 0)
    return [title, el("p", { class: "meta" }, "No MCP server is configured.")];
  const columns = ["Server", "Status", "Tools", ...(details.details ? ["Last error"] : [])];
  return [
    title,
    el(
      "table",
      {},
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          columns.map((name) => el("th", { scope: "col" }, name)),
        ),
      ),
      el(
        "tbody",
        {},
        details.servers.map((server) =>
          el(
            "tr",
            {},
            el("td", {}, server.name),
            el("td", { class: server.status === "failed" ? "bad" : undefined }, server.status),
            el("td", {}, String(server.tools)),
            details.details ? el("td", {}, server.error ?? "") : undefined,
          ),
        ),
      ),
    ),
  ];
}

function checksView(details) {
  const title = el("h2", { id: "health-checks-title" }, "Checks");
  if (!details.available)
    return [
      title,
      el("p", { class: "meta" }, "This gateway was started without its config at hand: no checks."),
    ];
  const note = details.details
    ? "toolsift doctor's checks for the config this gateway runs on (plugins: see the log)."
    : "toolsift doctor's checks for this gateway; an admin key sees what each found.";
  return [
    title,
    el("p", { class: "meta" }, note),
    el(
      "ul",
      { class: "checks" },
      details.checks.map((check) =>
        el(
          "li",
          { class: `check check-${check.status}` },
          el("strong", {}, `${check.status}`),
          ` ${check.name}`,
          check.message === undefined ? undefined : `: ${check.message}`,
          check.details?.length
            ? el(
                "ul",
                {},
                check.details.map((line) => el("li", {}, line)),
              )
            : undefined,
          check.fix === undefined ? undefined : el("p", { class: "meta" }, `fix: ${check.fix}`),
        ),
      ),
    ),
  ];
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
