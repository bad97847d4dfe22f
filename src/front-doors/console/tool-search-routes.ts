import type { Context } from "hono";
import { type ConsoleRouteContext, type Refusal, refuse } from "./console-request.js";

/** Longest query the search box sends, in characters (a `tool_search` batch query's bound). */
export const MAX_TOOL_QUERY_CHARS = 512;

/** Highest `limit` the search box asks for (the highest `tools.toolSearch.maxSearchLimit` can be). */
export const MAX_TOOL_SEARCH_LIMIT = 50;

/** Longest tool id or name the details ask `tool_describe` for, in characters. */
export const MAX_TOOL_ID_CHARS = 512;

/**
 * The tools page's search box and tool details: `GET /console/api/tool-search?agent=&q=&limit=` answers
 * what `tool_search` would return to the model in a run of the agent (and the bytes it stands for),
 * `GET /console/api/tool-describe?agent=&id=` what `tool_describe` would. Both through the backend, with the
 * tools page's checks (`runs`, the agent allowed for the key); a blank or over-long query, a limit that is
 * not 1 to 50, a blank or over-long id are 400s here.
 */
export function registerToolSearchRoutes(context: ConsoleRouteContext, api: string): void {
  const { app, backend, signedInCaller } = context;

  app.get(`${api}/tool-search`, async (c) => {
    const caller = await signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    const query = readQuery(c);
    if (typeof query !== "string") return refuse(c, query);
    const limit = readLimit(c.req.query("limit"));
    if (typeof limit === "object") return refuse(c, limit);
    const look = { query, ...(limit === undefined ? {} : { limit }) };
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

function readQuery(c: Context): string | Refusal {
  const query = c.req.query("q") ?? "";
  if (query.trim() === "") {
    return badRequest("query_missing", "type what the model would search for in q (it must not be blank).");
  }
  if (query.length > MAX_TOOL_QUERY_CHARS) {
    return badRequest(
      "query_too_long",
      `a search query has at most ${MAX_TOOL_QUERY_CHARS} characters: shorten it.`,
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
