import {
  type ListedSession,
  listSessionPage,
  type SessionContentQuery,
  type SessionStore,
} from "../../runtime/sessions/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { invalidRequest } from "./gateway-error.js";
import { MAX_SESSION_PAGE_LIMIT } from "./limits.js";

/** Sessions on a page of `GET /v1/sessions` without `limit` (OpenAI's list default). */
const DEFAULT_SESSION_PAGE_LIMIT = 20;

/** `GET /v1/sessions`: OpenAI's list shape, the sessions' fields as before plus `object`, `id`, `createdAt`. */
export type SessionListPage = {
  object: "list";
  data: Array<ListedSession & { object: "session" }>;
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
};

/** What the request asked for, as query strings (absent: the default). */
export type SessionPageQuery = {
  limit: string | undefined;
  after: string | undefined;
  filter?: (session: { agentId: string; sessionKey: string }) => boolean;
  /** Only sessions whose log answers it (status, text inside): bounded per page, see `pageByContent`. */
  content?: SessionContentQuery;
};

const DIGITS = /^[0-9]{1,4}$/u;

/**
 * One page of sessions as OpenAI's list endpoints answer: `limit` (1 to 100, default 20), `after` the
 * `last_id` of the previous page, newest created first; `filter` narrows the list (the `?agent=` query;
 * later the caller's own sessions). A bad `limit` or an `after` that names no session is a 400 naming the
 * parameter.
 */
export async function readSessionPage(
  store: SessionStore,
  query: SessionPageQuery,
): Promise<SessionListPage> {
  const limit = readLimit(query.limit);
  let page: Awaited<ReturnType<typeof listSessionPage>>;
  try {
    page = await listSessionPage(store, {
      limit,
      ...(query.after === undefined ? {} : { after: query.after }),
      ...(query.filter === undefined ? {} : { filter: query.filter }),
      ...(query.content === undefined ? {} : { content: query.content }),
    });
  } catch (error) {
    if (isToolsiftError(error) && error.code === "INVALID_REQUEST")
      throw invalidRequest("after", error.message);
    throw error;
  }
  const data = page.data.map((session) => ({ object: "session" as const, ...session }));
  return {
    object: "list",
    data,
    first_id: data[0]?.id ?? null,
    // A search by content that stopped at its bound goes on after the last session it read.
    last_id: page.scannedTo ?? data.at(-1)?.id ?? null,
    has_more: page.hasMore,
  };
}

function readLimit(text: string | undefined): number {
  if (text === undefined) return DEFAULT_SESSION_PAGE_LIMIT;
  const limit = DIGITS.test(text) ? Number(text) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_SESSION_PAGE_LIMIT)) {
    throw invalidRequest(
      "limit",
      `limit must be a whole number from 1 to ${MAX_SESSION_PAGE_LIMIT} (default ${DEFAULT_SESSION_PAGE_LIMIT}); got ${JSON.stringify(text.slice(0, 40))}.`,
    );
  }
  return limit;
}
