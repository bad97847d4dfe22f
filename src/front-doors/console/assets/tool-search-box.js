// The tools page's search box and tool details: what `tool_search` and `tool_describe` would return to the
// agent's model, asked of the gateway (which answers them on the surface a run of the agent opens, without a
// run). Tool names, descriptions, schemas and the model's text are untrusted: they go into the page only as
// text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, pretty, problem } from "./dom.js";

/** Most query rows the box holds (the route's bound; tool_search itself answers past 16 with its refusal). */
const MAX_QUERY_ROWS = 32;

/**
 * The search box for one agent's catalog (Tool Search on), with the answer and the bytes below it. One query
 * is a single tool_search call; "Add query" adds rows, and several filled rows are one batch call
 * (`queries`, each with its own limit), as a model would send it.
 */
export function searchBox(agentId) {
  const query = queryInput("tool-query", "what the model would search for");
  const limit = limitInput("tool-limit");
  const rows = [{ query, limit }];
  const answer = el("div", { id: "tool-search-answer", "aria-live": "polite" });
  const extra = el("div", { id: "tool-batch-rows" });
  const add = el("button", { type: "button", id: "tool-add-query" }, "Add query");
  const form = el(
    "form",
    { class: "filters", role: "search", "aria-label": "Search the catalog" },
    el("label", { for: "tool-query" }, "Query", query),
    el("label", { for: "tool-limit" }, "Limit (optional)", limit),
    extra,
    add,
    el("button", { type: "submit" }, "Search"),
  );
  add.addEventListener("click", () => {
    if (rows.length >= MAX_QUERY_ROWS) return;
    const number = rows.length + 1;
    const row = {
      query: queryInput(`tool-query-${number}`, `query ${number}`),
      limit: limitInput(`tool-limit-${number}`),
    };
    const remove = el("button", { type: "button", "aria-label": `Remove query ${number}` }, "Remove");
    const group = el(
      "div",
      { role: "group", "aria-label": `Query ${number}`, class: "batch-row" },
      el("label", { for: row.query.id }, `Query ${number}`, row.query),
      el("label", { for: row.limit.id }, "Limit (optional)", row.limit),
      remove,
    );
    remove.addEventListener("click", () => {
      rows.splice(rows.indexOf(row), 1);
      group.remove();
      add.disabled = false;
      (rows.at(-1)?.query ?? query).focus();
    });
    rows.push(row);
    extra.append(group);
    add.disabled = rows.length >= MAX_QUERY_ROWS;
    row.query.focus();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const params = new URLSearchParams({ agent: agentId });
    const filled = rows.filter((row) => row.query.value.trim() !== "");
    if (filled.length <= 1) {
      params.append("q", (filled[0] ?? rows[0]).query.value);
      const only = (filled[0] ?? rows[0]).limit.value;
      if (only !== "") params.set("limit", only);
    } else {
      // A batch: each query with its limit beside it (empty: the agent's default).
      for (const row of filled) {
        params.append("q", row.query.value);
        params.append("limit", row.limit.value);
      }
    }
    answer.replaceChildren(el("p", { class: "meta" }, "Searching…"));
    try {
      answer.replaceChildren(...present(searchView(await api(`/tool-search?${params}`))));
    } catch (error) {
      answer.replaceChildren(problem(error));
    }
  });
  return el(
    "section",
    { "aria-labelledby": "tool-search-heading" },
    el("h2", { id: "tool-search-heading" }, "Search the catalog"),
    el(
      "p",
      { class: "meta" },
      "Shows exactly what tool_search returns to this agent's model for a query in a run (same settings, mode, policy and owners), and the request bytes it saves. Add queries to see a batch call (queries) as the model gets it.",
    ),
    form,
    answer,
  );
}

function queryInput(id, placeholder) {
  return el("input", {
    id,
    name: "q",
    type: "search",
    required: id === "tool-query",
    maxlength: 512,
    autocomplete: "off",
    placeholder,
  });
}

function limitInput(id) {
  return el("input", {
    id,
    name: "limit",
    type: "number",
    min: 1,
    max: 50,
    step: 1,
    inputmode: "numeric",
    placeholder: "agent default",
  });
}

function searchView(preview) {
  const bytes = bytesView(preview.bytes, preview.answer !== undefined);
  if (preview.answer === undefined) {
    return [
      el(
        "p",
        {},
        "Tool Search is off for this agent's runs: the model has no tool_search, every tool is declared up front.",
      ),
      bytes,
    ];
  }
  const { output, isError } = preview.answer;
  const candidates = isError ? undefined : candidateList(output);
  return [
    el(
      "p",
      { class: isError ? "message bad" : "meta" },
      isError
        ? `tool_search refused the call${preview.answer.errorCode ? ` (${preview.answer.errorCode})` : ""}: the model reads the text below.`
        : `tool_search ${JSON.stringify(preview.arguments)}`,
    ),
    candidates,
    bytes,
    el("h3", {}, "What the model receives"),
    el("pre", { id: "tool-search-output" }, output),
  ];
}

/**
 * The candidates of a search's output: a single search's JSON array, or a batch's groups (one per query, in
 * order, each marked when the response bound cut it); a note when there are none.
 */
function candidateList(output) {
  let parsed;
  try {
    parsed = JSON.parse(output);
  } catch {
    return el("p", { class: "meta" }, "No candidates: the model reads the text below.");
  }
  if (Array.isArray(parsed?.results)) {
    return el(
      "div",
      { id: "tool-batch-results" },
      parsed.results.map((group, index) =>
        el(
          "section",
          { class: "batch-group", "aria-label": `Query ${index + 1}` },
          el("h3", {}, `Query ${index + 1}: `, el("code", {}, String(group?.query ?? ""))),
          group?.truncated === true
            ? el("p", { class: "meta" }, "Cut to fit the response bound (truncated).")
            : undefined,
          candidateItems(group?.candidates, undefined),
        ),
      ),
    );
  }
  return candidateItems(parsed, "tool-candidates");
}

function candidateItems(candidates, id) {
  if (!Array.isArray(candidates) || candidates.length === 0) {
    return el("p", { class: "meta" }, "No candidates for this query.");
  }
  return el(
    "ol",
    { ...(id === undefined ? {} : { id }), class: "candidates", "aria-label": "Candidates" },
    candidates.map((candidate) =>
      el(
        "li",
        { class: "event search" },
        el("code", {}, String(candidate?.name ?? "")),
        " ",
        el("span", { class: "meta" }, `${candidate?.id ?? ""} · ${candidate?.source ?? ""}`),
        el("p", {}, String(candidate?.description ?? "")),
        candidate?.input
          ? el("p", { class: "meta" }, "input ", el("code", {}, String(candidate.input)))
          : undefined,
      ),
    ),
  );
}

/** The four byte counts, each with what it is. */
function bytesView(bytes, withResult) {
  const rows = [
    [
      "Every schema up front",
      bytes.everyTool,
      "the tools field of a request declaring every admitted tool of this agent (as with Tool Search off), in its provider's API",
    ],
    [
      "Declared with Tool Search",
      bytes.declared,
      "the tools field this agent's requests send now: the controls and the tools declared up front",
    ],
  ];
  if (withResult) {
    rows.push([
      "This search's result",
      bytes.result,
      "the text tool_search returns to the model for this query",
    ]);
    rows.push([
      "Saved",
      bytes.saved,
      "every schema up front, minus what is declared with Tool Search and this result (negative: searching costs more)",
    ]);
  }
  return el(
    "dl",
    { id: "tool-search-bytes", "aria-label": "Request bytes" },
    rows.flatMap(([name, value, meaning]) => [
      el("dt", {}, name),
      el("dd", {}, el("strong", {}, `${Number(value).toLocaleString("en")} bytes`), " — ", meaning),
    ]),
  );
}

/**
 * A tool's name that opens (Enter or Space on it) to its description and input schema as tool_describe
 * returns them to the model, asked for the first time it opens.
 */
export function toolDetails(agentId, tool, toolSearchOn) {
  const body = el("div", { class: "tool-details" });
  const details = el("details", {}, el("summary", {}, el("code", {}, tool.name)), body);
  let asked = false;
  details.addEventListener("toggle", async () => {
    if (!details.open || asked) return;
    asked = true;
    if (!toolSearchOn) {
      body.replaceChildren(
        el("p", { class: "meta" }, "Tool Search is off for this agent: the model has no tool_describe."),
      );
      return;
    }
    body.replaceChildren(el("p", { class: "meta" }, "Loading…"));
    try {
      const described = await api(`/tool-describe?${new URLSearchParams({ agent: agentId, id: tool.id })}`);
      body.replaceChildren(...present(describeView(described)));
    } catch (error) {
      asked = false;
      body.replaceChildren(problem(error));
    }
  });
  return details;
}

function describeView(described) {
  if (described.answer === undefined) {
    return [el("p", { class: "meta" }, "Tool Search is off for this agent: the model has no tool_describe.")];
  }
  const output = described.answer.output;
  if (described.answer.isError) {
    return [el("p", { class: "message bad" }, "tool_describe refuses it; the model reads: ", output)];
  }
  let description;
  try {
    description = JSON.parse(output);
  } catch {
    return [el("pre", {}, output)];
  }
  return [
    el("p", { class: "meta" }, "As tool_describe returns it to the model:"),
    el("p", {}, String(description?.description ?? "")),
    el("h3", {}, "Input schema"),
    el("pre", { class: "tool-schema" }, pretty(description?.parameters ?? {})),
    description?.outputSchema === undefined ? undefined : el("h3", {}, "Output schema"),
    description?.outputSchema === undefined ? undefined : el("pre", {}, pretty(description.outputSchema)),
  ];
}

/** The nodes of a view, without the parts it left out (`replaceChildren` would show them as text). */
function present(nodes) {
  return nodes.filter((node) => node !== undefined);
}
