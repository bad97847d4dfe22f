// Every value shown comes from the gateway's JSON and is untrusted text (tool names, owners, MCP server
// errors): it goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, facts, problem, show } from "./dom.js";
import { searchBox, toolDetails } from "./tool-search-box.js";

/** What each visibility means for the model, in the words of the effective surface. */
const VISIBILITY = {
  direct: "declared up front",
  catalog: "behind Tool Search",
  "direct-only": "declared up front, never in search",
};

export async function showTools(session) {
  const agent = el(
    "select",
    { id: "tools-agent", name: "agent" },
    session.agents.map((id) => el("option", { value: id }, id)),
  );
  const form = el(
    "form",
    { class: "filters" },
    el("label", { for: "tools-agent" }, "Agent", agent),
    el("button", { type: "submit" }, "Show"),
  );
  const result = el("div", { id: "tools" });
  const load = async () => {
    try {
      const surface = await api(`/tools?${new URLSearchParams({ agent: agent.value })}`);
      result.replaceChildren(...surfaceView(surface));
    } catch (error) {
      result.replaceChildren(problem(error));
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void load();
  });
  show(
    "Tools",
    el("p", { class: "meta" }, "The tools a run of the agent would get, as the model sees them."),
    form,
    result,
  );
  if (session.agents.length > 0) await load();
}

/** What `catalog` means when the agent's runs use Code Mode: no tool_search, a cell's `tools` object. */
const CODE_MODE_CATALOG = "reached inside a Code Mode cell (tools.search, tools.call)";

function surfaceView(surface) {
  const codeMode = surface.codeMode?.enabled === true;
  const search = codeMode
    ? "Code Mode on (exec and wait replace Tool Search)"
    : surface.toolSearch?.enabled
      ? `Tool Search on (${surface.toolSearch.mode} mode)`
      : "Tool Search off";
  return [
    facts([
      ["agent", surface.agentId],
      ["tools", surface.tools.length],
      ["declared up front", surface.declaredTools.length],
    ]),
    el("p", {}, search),
    el("p", {}, "Declared: ", surface.declaredTools.join(", ") || "none"),
    surface.toolSearch?.enabled
      ? searchBox(surface.agentId)
      : el(
          "p",
          { class: "meta" },
          codeMode
            ? "Code Mode is on for this agent: the model writes cells that find tools with tools.search, so there is no tool_search to show."
            : "Tool Search is off for this agent: every tool is declared up front, so the model has no tool_search to show.",
        ),
    el(
      "table",
      {},
      el("caption", { class: "meta" }, "Admitted tools (open a name for its description and schema)"),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ["Name", "Id", "Source", "Owner", "Visibility"].map((name) => el("th", { scope: "col" }, name)),
        ),
      ),
      el(
        "tbody",
        {},
        surface.tools.map((tool) =>
          el(
            "tr",
            {},
            el("td", {}, toolDetails(surface.agentId, tool, surface.toolSearch?.enabled === true)),
            el("td", {}, tool.id),
            el("td", {}, tool.source),
            el("td", {}, tool.owner),
            el(
              "td",
              {},
              codeMode && tool.visibility === "catalog"
                ? CODE_MODE_CATALOG
                : Object.hasOwn(VISIBILITY, tool.visibility)
                  ? VISIBILITY[tool.visibility]
                  : String(tool.visibility),
            ),
          ),
        ),
      ),
    ),
    surface.servers?.length
      ? el(
          "section",
          { "aria-label": "MCP servers" },
          el("h2", {}, "MCP servers"),
          el(
            "ul",
            {},
            surface.servers.map((server) =>
              el(
                "li",
                {},
                `${server.name}: ${server.status}, ${server.tools} tools`,
                server.error ? ` (${server.error})` : "",
              ),
            ),
          ),
        )
      : undefined,
  ].filter((node) => node !== undefined);
}
