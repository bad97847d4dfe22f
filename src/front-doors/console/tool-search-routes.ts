import type { Context } from "hono";
import { type ConsoleRouteContext, type Refusal, refuse } from "./console-request.js";

/** Longest query the search box sends, in characters (a `tool_search` batch query's bound). */
export const MAX_TOOL_QUERY_CHARS = 512;

/** Highest `limit` the search box asks for (the highest `tools.toolSearch.maxSearchLimit` can be). */
export const MAX_TOOL_SEARCH_LIMIT = 50;

/**
 * Most queries the search box sends in one batch: twice the control's own budget (16), so a batch over that
 * budget reaches `tool_search` and is answered with the refusal the model would get.
 */
export const MAX_TOOL_BATCH_QUERIES = 32;

/** Longest tool id or name the details ask `tool_describe` for, in characters. */
export const MAX_TOOL_ID_CHARS = 512;

/**
 * The tools page's search box and tool details: `GET /console/api/tool-search?agent=&q=&limit=` answers
 * what `tool_search` would return to the model in a run of the agent (and the bytes it stands for); with
 * `q` repeated (each with its own `limit`, in the same order; an empty `limit` is the agent's default) it is
 * a batch call (`queries`), whose budgets the control itself checks, as in a run;
 * `GET /console/api/tool-describe?agent=&id=` what `tool_describe` would. Both through the backend, with the
 * tools page's checks (`runs`, the agent allowed for the key); a blank or over-long query, a limit that is
 * not 1 to 50, a blank or over-long id are 400s here.
 */
export function registerToolSearchRoutes(context: ConsoleRouteContext, api: string): void {
  const { app, backend, signedInCaller } = context;

  app.get(`${api}/tool-search`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    const look = readLook(c);
    if ("status" in look) return refuse(c, look);
    return c.json(await backend.searchTools(caller, c.req.query("agent") ?? "", look));
  });

  app.get(`${api}/tool-describe`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    const id = c.req.query("id") ?? "";
    if (id.trim() === "") return refuse(c, badRequest("tool_id_missing", "name the tool to describe in id."));
    if (id.length > MAX_TOOL_ID_CHARS) {
      return refuse(
        c,
        badRequest("tool_id_too_long", `a tool id has at most ${MAX_TOOL_ID_CHARS} characters.`),
      );
    }
    return c.json(await backend.describeTool(caller, c.req.query("agent") ?? "", id));
  });
}

type Look = { query: string; limit?: number } | { queries: Array<{ query: string; limit?: number }> };

/** One query (`q`, `limit`), or a batch (`q` repeated, `limit` beside each), or a refusal. */
function readLook(c: Context): Look | Refusal {
  const queries = c.req.queries("q") ?? [];
  const limits = c.req.queries("limit") ?? [];
  if (queries.length <= 1) {
    const query = readQuery(queries[0] ?? "", "q");
    if (typeof query !== "string") return query;
    const limit = readLimit(c.req.query("limit"));
    if (typeof limit === "object") return limit;
    return { query, ...(limit === undefined ? {} : { limit }) };
  }
  if (queries.length > MAX_TOOL_BATCH_QUERIES) {
    return badRequest(
      "too_many_queries",
      `a batch search sends at most ${MAX_TOOL_BATCH_QUERIES} queries (tool_search itself takes 16): remove some.`,
    );
  }
  if (limits.length > queries.length) {
    return badRequest("invalid_limit", "give at most one limit per query, in the order of the queries.");
  }
  const batch: Array<{ query: string; limit?: number }> = [];
  for (const [index, value] of queries.entries()) {
    const query = readQuery(value, `query ${index + 1}`);
    if (typeof query !== "string") return query;
    const limit = readLimit(limits[index]);
    if (typeof limit === "object") return limit;
    batch.push({ query, ...(limit === undefined ? {} : { limit }) });
  }
  return { queries: batch };
}

function readQuery(query: string, name: string): string | Refusal {
  if (query.trim() === "") {
    return badRequest(
      "query_missing",
      `type what the model would search for in ${name} (it must not be blank).`,
    );
  }
  if (query.length > MAX_TOOL_QUERY_CHARS) {
    return badRequest(
      "query_too_long",
      `a search query has at most ${MAX_TOOL_QUERY_CHARS} characters: shorten ${name}.`,
    );
  }
  return query;
}

/** The limit as a number, undefined when absent (the agent's default), or a refusal. */
function readLimit(value: string | undefined): number | undefined | Refusal {
  if (value === undefined || value === "") return undefined;
  const limit = /^[0-9]{1,3}$/u.test(value) ? Number(value) : Number.NaN;
  if (limit >= 1 && limit <= MAX_TOOL_SEARCH_LIMIT) return limit;
  return badRequest(
    "invalid_limit",
    `limit must be a whole number from 1 to ${MAX_TOOL_SEARCH_LIMIT} (leave it out for the agent's default).`,
  );
}

function badRequest(code: string, message: string): Refusal {
  return { status: 400, code, message };
}
