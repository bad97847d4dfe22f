import { pageByContent } from "./page-by-content.js";
import { pageSessions, type SessionPage, type SessionPageOptions } from "./page-sessions.js";
import type { SessionStore } from "./types.js";

/**
 * A page of `store`'s sessions: its own `listPage` when it has one (the file store: `stat`s only), else a
 * page of its `list()`, ordered as `list()` orders (its `updatedAt` stands in for the creation time, so such
 * a store's pages hold still only while no listed session is written to). The one paging entry point for
 * the gateway and the CLI; `options.filter` narrows it (by agent, by owner).
 */
export async function listSessionPage(
  store: SessionStore,
  options: SessionPageOptions,
): Promise<SessionPage> {
  if (store.listPage !== undefined) return store.listPage(options);
  const listed = await store.list();
  const { content, limit, ...rest } = options;
  if (content !== undefined) {
    const candidates = pageSessions(listed.map(statOf), { ...rest, limit: listed.length }, true).data;
    return pageByContent(candidates, limit, content, (batch) =>
      Promise.all(batch.map((session) => store.read(session.agentId, session.sessionKey))),
    );
  }
  return pageSessions(
    listed.map((session) => {
      const updatedMs = Date.parse(session.updatedAt);
      return {
        agentId: session.agentId,
        sessionKey: session.sessionKey,
        createdMs: updatedMs,
        updatedMs,
        bytes: session.bytes,
      };
    }),
    options,
    true,
  );
}

function statOf(session: { agentId: string; sessionKey: string; updatedAt: string; bytes: number }) {
  const updatedMs = Date.parse(session.updatedAt);
  return {
    agentId: session.agentId,
    sessionKey: session.sessionKey,
    createdMs: updatedMs,
    updatedMs,
    bytes: session.bytes,
  };
}
