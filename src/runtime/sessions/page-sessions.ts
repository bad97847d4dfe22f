import { ToolsiftError } from "../../shared/errors/index.js";
import type { SessionContentQuery } from "./session-content.js";
import { isValidSessionKey } from "./session-key.js";

/** One session as the list shows it; `id` is `<agentId>/<sessionKey>`, the `after` cursor of the next page. */
export type ListedSession = {
  id: string;
  agentId: string;
  sessionKey: string;
  /** When the log was created (its file's birth time; its modification time where the file system has none). */
  createdAt: string;
  /** When the log was last written (its file's modification time). */
  updatedAt: string;
  bytes: number;
};

/** What a page is chosen by: a session's place (creation time) and what it shows, from one `stat`. */
export type SessionStat = {
  agentId: string;
  sessionKey: string;
  createdMs: number;
  updatedMs: number;
  bytes: number;
};

/** Which page of sessions to answer. */
export type SessionPageOptions = {
  /** Most sessions on the page (the caller bounds it; the gateway allows 1 to 100, default 20). */
  limit: number;
  /** The `id` of the last session of the previous page; absent for the first page. */
  after?: string;
  /**
   * Only sessions this accepts are listed (the gateway's `?agent=`; later the caller's own sessions).
   * The `after` cursor need not pass it. Default: every session.
   */
  filter?: (session: { agentId: string; sessionKey: string }) => boolean;
  /**
   * Only sessions whose log answers this (the last run's status, text in the user's input or the model's
   * output): the store reads the logs of the candidates `filter` accepted, in page order, at most
   * `MAX_CONTENT_SCAN_SESSIONS` of them and `MAX_CONTENT_SCAN_BYTES` per page (see pageByContent). Only
   * stores with `listPage` search by content.
   */
  content?: SessionContentQuery;
};

/**
 * One page of sessions, newest first, and whether more follow it. `scannedTo` is set when a search by content
 * stopped at its bound before the page was full: the id of the last session it read, which the next page
 * goes on after (the `after` cursor), so a rare text is searched page by page rather than in one request.
 */
export type SessionPage = { data: ListedSession[]; hasMore: boolean; scannedTo?: string };

/** The id of a session in lists and cursors: `<agentId>/<sessionKey>` (neither part can hold a `/`). */
export function sessionListId(agentId: string, sessionKey: string): string {
  return `${agentId}/${sessionKey}`;
}

/** The agent id and session key of a list id, or undefined when it is not one (`main/demo`). */
export function parseSessionListId(id: string): { agentId: string; sessionKey: string } | undefined {
  const slash = id.indexOf("/");
  if (slash === -1) return undefined;
  const agentId = id.slice(0, slash);
  const sessionKey = id.slice(slash + 1);
  return isValidSessionKey(agentId) && isValidSessionKey(sessionKey) ? { agentId, sessionKey } : undefined;
}

/** The list order: newest created first, then by agent id and session key (a total order, so pages never overlap). */
function compareSessions(left: SessionStat, right: SessionStat): number {
  if (left.createdMs !== right.createdMs) return right.createdMs - left.createdMs;
  if (left.agentId !== right.agentId) return left.agentId < right.agentId ? -1 : 1;
  return left.sessionKey < right.sessionKey ? -1 : left.sessionKey > right.sessionKey ? 1 : 0;
}

/**
 * The page of `sessions` (in any order) that `options` asks for: those `filter` accepts, newest created first,
 * strictly after the `after` session in that order, at most `limit`. Creation times do not change as sessions
 * are written to, and a new session is newer than every listed one, so paging with `after` neither repeats
 * nor skips a session while sessions are added. An `after` that names no session (malformed, or unknown)
 * throws INVALID_REQUEST saying to start from the first page. With `inGivenOrder`, `sessions` are taken
 * in the order given instead (a store's own list order).
 */
export function pageSessions(
  sessions: readonly SessionStat[],
  options: SessionPageOptions,
  inGivenOrder = false,
): SessionPage {
  const { limit, after, filter } = options;
  let cursor = -1;
  if (after !== undefined) {
    const named = parseSessionListId(after);
    cursor =
      named === undefined
        ? -1
        : sessions.findIndex(
            (session) => session.agentId === named.agentId && session.sessionKey === named.sessionKey,
          );
    if (cursor === -1) {
      throw new ToolsiftError(
        "INVALID_REQUEST",
        `after ${JSON.stringify(after.slice(0, 200))} names no session: pass the id of the last session of the previous page (agent/key), or leave after out for the first page.`,
      );
    }
  }
  const accepted = (session: SessionStat) => filter === undefined || filter(session);
  let candidates: SessionStat[];
  if (inGivenOrder) candidates = sessions.slice(cursor + 1).filter(accepted);
  else {
    const last = sessions[cursor];
    candidates = sessions.filter(
      (session) => (last === undefined || compareSessions(session, last) > 0) && accepted(session),
    );
    candidates.sort(compareSessions);
  }
  return { data: candidates.slice(0, limit).map(listedSession), hasMore: candidates.length > limit };
}

function listedSession(session: SessionStat): ListedSession {
  return {
    id: sessionListId(session.agentId, session.sessionKey),
    agentId: session.agentId,
    sessionKey: session.sessionKey,
    createdAt: new Date(session.createdMs).toISOString(),
    updatedAt: new Date(session.updatedMs).toISOString(),
    bytes: session.bytes,
  };
}
