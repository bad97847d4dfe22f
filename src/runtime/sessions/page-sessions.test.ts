import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createFileSessionStore } from "./file-session-store.js";
import { listSessionPage } from "./list-session-page.js";
import { pageSessions, type SessionStat } from "./page-sessions.js";
import type { SessionEvent, SessionStore } from "./types.js";

function stat(agentId: string, sessionKey: string, createdMs: number): SessionStat {
  return { agentId, sessionKey, createdMs, updatedMs: createdMs, bytes: 10 };
}

const event: SessionEvent = { type: "user-input", at: "2026-01-01T00:00:00.000Z", items: [] };

/** Every id, page by page, `limit` at a time; `between` runs after each page (sessions arrive meanwhile). */
async function pageThrough(
  page: (after: string | undefined) => Promise<{ data: Array<{ id: string }>; hasMore: boolean }>,
  between: (pageIndex: number) => Promise<void> = async () => {},
): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pageIndex = 0; ; pageIndex += 1) {
    const answer = await page(after);
    ids.push(...answer.data.map((session) => session.id));
    if (!answer.hasMore) return ids;
    after = answer.data.at(-1)?.id;
    await between(pageIndex);
  }
}

describe("pageSessions", () => {
  const sessions = [stat("main", "a", 1), stat("main", "b", 3), stat("helper", "c", 2), stat("main", "d", 3)];

  it("orders newest created first, ties by id, and pages with after", () => {
    const first = pageSessions(sessions, { limit: 2 });
    expect(first.data.map((session) => session.id)).toEqual(["main/b", "main/d"]);
    expect(first.hasMore).toBe(true);
    const second = pageSessions(sessions, { limit: 2, after: "main/d" });
    expect(second.data.map((session) => session.id)).toEqual(["helper/c", "main/a"]);
    expect(second.hasMore).toBe(false);
    expect(second.data[0]).toEqual({
      id: "helper/c",
      agentId: "helper",
      sessionKey: "c",
      createdAt: "1970-01-01T00:00:00.002Z",
      updatedAt: "1970-01-01T00:00:00.002Z",
      bytes: 10,
    });
  });

  it("filters, with a cursor the filter need not accept", () => {
    const mainOnly = (session: { agentId: string }) => session.agentId === "main";
    expect(pageSessions(sessions, { limit: 10, filter: mainOnly }).data.map((session) => session.id)).toEqual(
      ["main/b", "main/d", "main/a"],
    );
    expect(
      pageSessions(sessions, { limit: 10, after: "helper/c", filter: mainOnly }).data.map(
        (session) => session.id,
      ),
    ).toEqual(["main/a"]);
  });

  it.each([
    ["a malformed id", "nope"],
    ["an empty id", ""],
    ["an id with a bad part", "main/../x"],
    ["an unknown session", "main/zzz"],
  ])("refuses %s as after with INVALID_REQUEST", (_name, after) => {
    let caught: unknown;
    try {
      pageSessions(sessions, { limit: 2, after });
    } catch (error) {
      caught = error;
    }
    expect(isToolsiftError(caught) && caught.code).toBe("INVALID_REQUEST");
    expect((caught as Error).message).toContain("leave after out for the first page");
  });
});

describe("paging the file store while sessions arrive and are written to", () => {
  let stateDir: string | undefined;
  afterEach(async () => {
    if (stateDir !== undefined) await rm(stateDir, { recursive: true, force: true });
    stateDir = undefined;
  });

  it("lists every session that existed once, with no duplicate, across pages", async () => {
    stateDir = await mkdtemp(join(tmpdir(), "toolsift-page-"));
    const store = createFileSessionStore(stateDir);
    const existing: string[] = [];
    for (let index = 0; index < 23; index += 1) {
      const agentId = index % 3 === 0 ? "helper" : "main";
      await store.append(agentId, `s${index}`, event);
      existing.push(`${agentId}/s${index}`);
    }
    const listed = await pageThrough(
      (after) => listSessionPage(store, { limit: 4, ...(after === undefined ? {} : { after }) }),
      async (pageIndex) => {
        // A new session, and another line in an old one, between every two pages.
        await store.append("main", `new${pageIndex}`, event);
        await store.append("main", `s${pageIndex}`, event);
      },
    );
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...existing].sort());
    // The newest session created comes first on a fresh first page.
    const fresh = await listSessionPage(store, { limit: 1 });
    expect(fresh.data[0]?.id).toMatch(/^main\/new\d+$/u);
  });

  it("pages a store that has only list() the same way (its own order)", async () => {
    stateDir = await mkdtemp(join(tmpdir(), "toolsift-page-"));
    const fileStore = createFileSessionStore(stateDir);
    for (let index = 0; index < 7; index += 1) await fileStore.append("main", `k${index}`, event);
    const listOnly: SessionStore = {
      append: (agentId, sessionKey, appended) => fileStore.append(agentId, sessionKey, appended),
      read: (agentId, sessionKey) => fileStore.read(agentId, sessionKey),
      list: () => fileStore.list(),
    };
    const listed = await pageThrough((after) =>
      listSessionPage(listOnly, { limit: 3, ...(after === undefined ? {} : { after }) }),
    );
    expect(listed).toEqual(
      (await fileStore.list()).map((session) => `${session.agentId}/${session.sessionKey}`),
    );
  });
});
