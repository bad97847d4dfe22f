// Every value shown comes from the gateway's JSON and is untrusted text (provider ids, a storage reason): it
// goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, problem, show } from "./dom.js";

/** How often the open page reads health again (the gateway caches its checks for as long). */
const REFRESH_MS = 10_000;

/**
 * The Health page, read again every REFRESH_MS while it is open and visible (at once when it is shown
 * again), and by its Refresh button. A part whose answer did not change is left as drawn, and a changed part
 * is replaced in place, so focus, a selection and the scroll position stay; the page says when it was last
 * read.
 */
export async function showHealth() {
  const result = el("div", { id: "health" });
  const servers = el("section", { id: "health-servers", "aria-labelledby": "health-servers-title" });
  const checks = el("section", { id: "health-checks", "aria-labelledby": "health-checks-title" });
  const readAt = el("p", { id: "health-read-at", class: "meta" }, "Reading…");
  const refresh = el("button", { type: "button" }, "Refresh");
  const drawn = { health: undefined, details: undefined };
  let reading;
  let timer;
  const read = async () => {
    const [health, details] = await Promise.allSettled([api("/health"), api("/health/checks")]);
    const healthKey = keyOf(health);
    if (healthKey !== drawn.health) {
      drawn.health = healthKey;
      result.replaceChildren(
        ...(health.status === "fulfilled" ? healthView(health.value) : [problem(health.reason)]),
      );
    }
    const detailsKey = keyOf(details);
    if (detailsKey !== drawn.details) {
      drawn.details = detailsKey;
      if (details.status === "fulfilled") {
        servers.replaceChildren(...serversView(details.value));
        checks.replaceChildren(...checksView(details.value));
      } else {
        servers.replaceChildren(problem(details.reason));
        checks.replaceChildren();
      }
    }
    readAt.textContent = `Last read ${new Date().toLocaleTimeString()}; read again every ${REFRESH_MS / 1000} s while this page is open.`;
  };
  // One read at a time; the next is planned when it ends, and not while the page is hidden.
  const load = () => {
    reading ??= read().finally(() => {
      reading = undefined;
      clearTimeout(timer);
      if (!document.hidden) timer = setTimeout(() => void load(), REFRESH_MS);
    });
    return reading;
  };
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) clearTimeout(timer);
    else void load();
  });
  refresh.addEventListener("click", () => void load());
  show(
    "Health",
    el(
      "p",
      { class: "meta" },
      "As /healthz answers: storage, draining, and each provider's last request; then the MCP servers and the checks toolsift doctor makes that apply to a running gateway.",
    ),
    refresh,
    readAt,
    result,
    servers,
    checks,
  );
  await load();
}

/** What a settled read drew from: its answer, or its failure's words. */
function keyOf(settled) {
  try {
    return settled.status === "fulfilled"
      ? `ok:${JSON.stringify(settled.value)}`
      : `failed:${String(settled.reason?.message ?? settled.reason)}`;
  } catch {
    return `unreadable:${Math.random()}`;
  }
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
