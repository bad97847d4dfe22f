import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import {
  createFileSessionStore,
  pageSessions,
  type SessionEvent,
  type SessionStore,
} from "../sessions/index.js";
import { appendWatchCases, contentSearchCases } from "../sessions/session-content-search.test-support.js";
import { MAX_APPEND_BATCH_BYTES, SESSION_PAGE_SCAN_ROWS } from "./limits.js";
import { migrateSchema } from "./migrate-schema.js";
import { openPostgresPool, type PostgresPool } from "./open-postgres-pool.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";
import { createPostgresSessionStore } from "./postgres-session-store.js";

const AT = "2026-01-01T00:00:00.000Z";

function userInput(text: string, runId = "run-1"): SessionEvent {
  return { type: "user-input", at: AT, runId, items: [{ type: "message", role: "user", text }] };
}

function textOf(event: SessionEvent | undefined): string | undefined {
  if (event?.type !== "user-input") return undefined;
  const item = event.items[0];
  return item?.type === "message" ? item.text : undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: PostgresCluster;
let db: PostgresPool;
const pools: PostgresPool[] = [];

/** A pool on a fresh, migrated database (closed in afterAll). */
async function freshDatabase(): Promise<PostgresPool> {
  const pool = openPostgresPool(await cluster.createDatabase("sessions"));
  pools.push(pool);
  await migrateSchema(pool);
  return pool;
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
});

afterAll(async () => {
  for (const pool of pools) await pool.end();
  await cluster?.destroy();
});

beforeEach(async () => {
  db = await freshDatabase();
});

describe("createPostgresSessionStore: append and read", () => {
  it("keeps each event as one redacted line and reads them back in order", async () => {
    const store = createPostgresSessionStore(db);
    await store.append("main", "s1", {
      type: "session",
      at: AT,
      version: 1,
      agentId: "main",
      sessionKey: "s1",
    });
    await store.append("main", "s1", userInput("hello"));
    const rows = await db.query<{ seq: string; line: string }>(
      "test",
      "SELECT seq, line FROM toolsift_session_events WHERE agent_id = 'main' AND session_key = 's1' ORDER BY seq",
    );
    expect(rows.rows.map((row) => Number(row.seq))).toEqual([1, 2]);
    expect(JSON.parse(rows.rows[0]!.line)).toMatchObject({
      type: "session",
      agentId: "main",
      sessionKey: "s1",
    });
    const events = await store.read("main", "s1");
    expect(events.map((event) => event.type)).toEqual(["session", "user-input"]);
    expect(textOf(events[1])).toBe("hello");
  });

  it("redacts secrets before writing", async () => {
    const store = createPostgresSessionStore(db);
    const key = "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL";
    await store.append("main", "s", {
      type: "target-activity",
      at: AT,
      runId: "r",
      parentCallId: "call_1",
      toolId: "native:weather:weather_now",
      name: "weather_now",
      source: "native",
      arguments: { city: "Paris", apiKey: "k-123", note: `key ${key}` },
      result: '{"token":"abc","temp":21}',
      isError: false,
    });
    const stored = (await db.query<{ line: string }>("test", "SELECT line FROM toolsift_session_events")).rows
      .map((row) => row.line)
      .join("\n");
    expect(stored).not.toContain("k-123");
    expect(stored).not.toContain(key);
    expect(stored).not.toContain('\\"abc\\"');
    const [event] = await store.read("main", "s");
    expect(event).toMatchObject({
      arguments: { city: "Paris", apiKey: "[REDACTED]", note: "key [REDACTED]" },
      result: '{"token":"[REDACTED]","temp":21}',
    });
  });

  it("serialises the event at call time: later changes by the caller are not written", async () => {
    const store = createPostgresSessionStore(db);
    const event = userInput("original");
    const pending = store.append("main", "s", event);
    if (event.type === "user-input") event.items = [{ type: "message", role: "user", text: "changed" }];
    await pending;
    expect((await store.read("main", "s")).map(textOf)).toEqual(["original"]);
  });

  it("keeps 200 concurrent appends to one session in call order, with dense seqs", async () => {
    const store = createPostgresSessionStore(db);
    const long = "x".repeat(5_000);
    await Promise.all(
      Array.from({ length: 200 }, (_, index) => store.append("main", "busy", userInput(`${index} ${long}`))),
    );
    expect((await store.read("main", "busy")).map(textOf)).toEqual(
      Array.from({ length: 200 }, (_, index) => `${index} ${long}`),
    );
    const seqs = await db.query<{ seq: string }>(
      "test",
      "SELECT seq FROM toolsift_session_events ORDER BY seq",
    );
    expect(seqs.rows.map((row) => Number(row.seq))).toEqual(
      Array.from({ length: 200 }, (_, index) => index + 1),
    );
    const [session] = await store.list();
    const expected = Array.from({ length: 200 }, (_, index) =>
      Buffer.byteLength(`${JSON.stringify(userInput(`${index} ${long}`))}\n`),
    ).reduce((sum, bytes) => sum + bytes, 0);
    expect(session?.bytes).toBe(expected);
  });

  it("keeps call order when appends arrive while a statement runs", async () => {
    const store = createPostgresSessionStore(db);
    const appended: Array<Promise<void>> = [];
    for (let index = 0; index < 60; index += 1) {
      appended.push(store.append("main", "trickle", userInput(`${index}`)));
      if (index % 7 === 0) await pause(1);
    }
    await Promise.all(appended);
    expect((await store.read("main", "trickle")).map(textOf)).toEqual(
      Array.from({ length: 60 }, (_, index) => `${index}`),
    );
  });

  it("sends the appends of one turn as one statement, and splits a batch past MAX_APPEND_BATCH_BYTES", async () => {
    const statements: string[] = [];
    const counting: PostgresPool = {
      ...db,
      query: (action, text, values) => {
        statements.push(action);
        return db.query(action, text, values);
      },
    };
    const store = createPostgresSessionStore(counting);
    await Promise.all(
      Array.from({ length: 50 }, (_, index) => store.append("main", "burst", userInput(`${index}`))),
    );
    expect(statements).toEqual(["appending to session main/burst"]);
    statements.length = 0;
    const third = "z".repeat(Math.ceil(MAX_APPEND_BATCH_BYTES / 3));
    await Promise.all(
      Array.from({ length: 4 }, (_, index) => store.append("main", "big", userInput(`${index}${third}`))),
    );
    expect(statements).toHaveLength(2);
    expect((await store.read("main", "big")).map((event) => textOf(event)?.slice(0, 2))).toEqual([
      "0z",
      "1z",
      "2z",
      "3z",
    ]);
  });

  it("read waits for this store's appends already queued", async () => {
    const store = createPostgresSessionStore(db);
    const appended = [store.append("main", "s", userInput("a")), store.append("main", "s", userInput("b"))];
    expect((await store.read("main", "s")).map(textOf)).toEqual(["a", "b"]);
    await Promise.all(appended);
  });

  it("keeps concurrent appends to different sessions apart", async () => {
    const store = createPostgresSessionStore(db);
    await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        store.append("main", index % 2 === 0 ? "even" : "odd", userInput(`${index}`)),
      ),
    );
    expect((await store.read("main", "even")).map(textOf)).toEqual(
      Array.from({ length: 25 }, (_, index) => `${index * 2}`),
    );
    expect((await store.read("main", "odd")).map(textOf)).toEqual(
      Array.from({ length: 25 }, (_, index) => `${index * 2 + 1}`),
    );
  });

  it("returns [] for a session that does not exist", async () => {
    expect(await createPostgresSessionStore(db).read("main", "nothing")).toEqual([]);
  });

  it("skips a row that does not parse and reads the rest, never throwing", async () => {
    const store = createPostgresSessionStore(db);
    await store.append("main", "s", userInput("first"));
    await db.query(
      "test",
      `INSERT INTO toolsift_session_events (agent_id, session_key, seq, line) VALUES
       ('main', 's', 2, '{"type":"user-input","items":[tor'), ('main', 's', 3, '{"type":"nope"}'), ('main', 's', 4, '[1]')`,
    );
    await db.query("test", "UPDATE toolsift_sessions SET last_seq = 4");
    await store.append("main", "s", userInput("last"));
    expect((await store.read("main", "s")).map(textOf)).toEqual(["first", "last"]);
  });
});

describe("createPostgresSessionStore: refusals", () => {
  it.each([
    ["parent traversal", "../x"],
    ["slash", "a/b"],
    ["empty", ""],
    ["129 characters", "a".repeat(129)],
    ["NUL", "a\u0000b"],
    ["non-string", 42],
  ])("refuses a session key or agent id with %s (INVALID_REQUEST, nothing written)", async (_, key) => {
    const store = createPostgresSessionStore(db);
    for (const action of [
      () => store.append("main", key as string, userInput("x")),
      () => store.read("main", key as string),
      () => store.append(key as string, "s", userInput("x")),
    ]) {
      const error = await action().catch((thrown: unknown) => thrown);
      expect(isToolsiftError(error) && error.code).toBe("INVALID_REQUEST");
      expect((error as Error).message).toMatch(/Invalid (session key|agent id)/);
    }
    expect(await store.list()).toEqual([]);
  });

  it("refuses an event without a known type, or not JSON-serialisable, as the file store does", async () => {
    const store = createPostgresSessionStore(db);
    const unknown = await store
      .append("main", "s", { type: "nope" } as unknown as SessionEvent)
      .catch((e: unknown) => e);
    expect(isToolsiftError(unknown) && unknown.code).toBe("INVALID_REQUEST");
    expect((unknown as Error).message).toContain("user-input");
    const bad = { ...userInput("x"), extra: 10n } as unknown as SessionEvent;
    const unserialisable = await store.append("main", "s", bad).catch((e: unknown) => e);
    expect(isToolsiftError(unserialisable) && unserialisable.code).toBe("INVALID_REQUEST");
    await store.append("main", "s", userInput("after"));
    expect((await store.read("main", "s")).map(textOf)).toEqual(["after"]);
  });

  it("answers a database without the schema with INTERNAL naming the fix", async () => {
    const bare = openPostgresPool(await cluster.createDatabase("bare"));
    pools.push(bare);
    const store = createPostgresSessionStore(bare);
    const error = await store.append("main", "s", userInput("x")).catch((e: unknown) => e);
    expect(isToolsiftError(error) && error.code).toBe("INTERNAL");
    expect((error as Error).message).toContain("toolsift state migrate");
  });
});

describe("createPostgresSessionStore: several processes on one session", () => {
  it("two pools appending to one session at once: every line once, seqs dense, each pool's order kept", async () => {
    const second = openPostgresPool(db.url);
    pools.push(second);
    const stores = [createPostgresSessionStore(db), createPostgresSessionStore(second)];
    const perStore = 150;
    // Each store issues its appends in index order, a few per turn, so both pools' statements interleave.
    const appendAll = async (store: SessionStore, which: number) => {
      const appended: Array<Promise<void>> = [];
      for (let index = 0; index < perStore; index += 1) {
        appended.push(store.append("main", "shared", userInput(`${which}:${index}`)));
        if (index % 10 === 9) await pause(1);
      }
      await Promise.all(appended);
    };
    await Promise.all(stores.map((store, which) => appendAll(store, which)));
    const texts = (await stores[1]!.read("main", "shared")).map((event) => textOf(event) ?? "");
    expect(texts).toHaveLength(2 * perStore);
    expect(new Set(texts).size).toBe(2 * perStore);
    for (const which of [0, 1]) {
      const mine = texts.filter((text) => text.startsWith(`${which}:`));
      expect(mine).toEqual(Array.from({ length: perStore }, (_, index) => `${which}:${index}`));
    }
    // Both pools' lines interleave (neither waited for the other to finish).
    const firstOfOne = texts.findIndex((text) => text.startsWith("1:"));
    const lastOfZero = texts.findLastIndex((text) => text.startsWith("0:"));
    expect(firstOfOne).toBeLessThan(lastOfZero);
    const seqs = await db.query<{ seq: string }>(
      "test",
      "SELECT seq FROM toolsift_session_events ORDER BY seq",
    );
    expect(seqs.rows.map((row) => Number(row.seq))).toEqual(
      Array.from({ length: 2 * perStore }, (_, index) => index + 1),
    );
    const session = await db.query<{ last_seq: string; bytes: string }>(
      "test",
      "SELECT last_seq, bytes FROM toolsift_sessions",
    );
    expect(Number(session.rows[0]?.last_seq)).toBe(2 * perStore);
    const lineBytes = await db.query<{ total: string }>(
      "test",
      "SELECT sum(octet_length(line) + 1) AS total FROM toolsift_session_events",
    );
    expect(Number(session.rows[0]?.bytes)).toBe(Number(lineBytes.rows[0]?.total));
  });
});

describe("createPostgresSessionStore: list and listPage", () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "toolsift-pg-compare-"));
    return () => rm(dir, { recursive: true, force: true });
  });

  /** Appends the same events, in the same order and with the same pauses, to both stores. */
  async function both(stores: SessionStore[], writes: Array<[string, string, string]>): Promise<void> {
    for (const [agentId, sessionKey, text] of writes) {
      for (const store of stores) await store.append(agentId, sessionKey, userInput(text));
      await pause(15);
    }
  }

  it("lists like the file store: most recently written first, with the same sizes", async () => {
    const postgres = createPostgresSessionStore(db);
    const files = createFileSessionStore(dir);
    expect(await postgres.list()).toEqual([]);
    await both(
      [postgres, files],
      [
        ["main", "a", "first"],
        ["other", "b", "second, ünïcödé"],
        ["main", "c", "third"],
        ["main", "a", "a again"],
      ],
    );
    const fromPostgres = await postgres.list();
    const fromFiles = await files.list();
    const shape = (list: typeof fromFiles) =>
      list.map(({ agentId, sessionKey, bytes }) => ({ agentId, sessionKey, bytes }));
    expect(shape(fromPostgres)).toEqual(shape(fromFiles));
    expect(fromPostgres.map((session) => session.sessionKey)).toEqual(["a", "c", "b"]);
    for (const session of fromPostgres) expect(session.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/u);
  });

  it("breaks ties of time by agent id, then key, in byte order", async () => {
    const store = createPostgresSessionStore(db);
    for (const [agentId, key] of [
      ["b", "x"],
      ["a", "y"],
      ["a", "X"],
      ["B", "z"],
    ] as const) {
      await store.append(agentId, key, userInput("x"));
    }
    await db.query(
      "test",
      "UPDATE toolsift_sessions SET updated_at = '2026-01-01T00:00:00Z', created_at = '2026-01-01T00:00:00Z'",
    );
    const order = ["B/z", "a/X", "a/y", "b/x"];
    expect((await store.list()).map((session) => `${session.agentId}/${session.sessionKey}`)).toEqual(order);
    expect((await store.listPage?.({ limit: 10 }))?.data.map((session) => session.id)).toEqual(order);
  });

  it("pages like the file store: newest created first, after a cursor, filtered", async () => {
    const postgres = createPostgresSessionStore(db);
    const files = createFileSessionStore(dir);
    const writes: Array<[string, string, string]> = [];
    for (let index = 0; index < 7; index += 1)
      writes.push([index % 3 === 0 ? "other" : "main", `s${index}`, "x"]);
    writes.push(["main", "s1", "written again: moves in list(), not in pages"]);
    await both([postgres, files], writes);
    const walk = async (store: SessionStore, filter?: (session: { agentId: string }) => boolean) => {
      const pages: Array<{ ids: string[]; bytes: number[]; hasMore: boolean }> = [];
      let after: string | undefined;
      for (;;) {
        const page = await store.listPage!({
          limit: 2,
          ...(after ? { after } : {}),
          ...(filter ? { filter } : {}),
        });
        pages.push({
          ids: page.data.map((s) => s.id),
          bytes: page.data.map((s) => s.bytes),
          hasMore: page.hasMore,
        });
        after = page.data.at(-1)?.id;
        if (!page.hasMore) return pages;
      }
    };
    const fromPostgres = await walk(postgres);
    expect(fromPostgres).toEqual(await walk(files));
    expect(fromPostgres.flatMap((page) => page.ids)).toEqual(
      ["s6", "s5", "s4", "s3", "s2", "s1", "s0"].map(
        (key, index) => `${[0, 3, 6].includes(6 - index) ? "other" : "main"}/${key}`,
      ),
    );
    const onlyMain = (session: { agentId: string }) => session.agentId === "main";
    expect(await walk(postgres, onlyMain)).toEqual(await walk(files, onlyMain));
    const page = await postgres.listPage!({ limit: 1 });
    expect(page.data[0]).toMatchObject({ id: "other/s6", agentId: "other", sessionKey: "s6" });
    expect(Date.parse(page.data[0]!.createdAt)).toBeLessThanOrEqual(Date.parse(page.data[0]!.updatedAt));
    const unknown = await postgres.listPage!({ limit: 1, after: "main/nope" }).catch((e: unknown) => e);
    expect(isToolsiftError(unknown) && unknown.code).toBe("INVALID_REQUEST");
  });
});

describe("createPostgresSessionStore: listPage over many sessions", () => {
  it("walks past several scan steps, through ties of creation time, as pageSessions over every session", async () => {
    const many = SESSION_PAGE_SCAN_ROWS * 2 + 123;
    // Three sessions share each creation time (ties are ordered by agent id, then key).
    await db.query(
      "test",
      `INSERT INTO toolsift_sessions (agent_id, session_key, created_at, updated_at, bytes, last_seq)
       SELECT CASE WHEN n % 5 = 0 THEN 'other' ELSE 'main' END, 'k' || (n * 7919 % 10007),
         timestamptz '2026-01-01T00:00:00Z' + make_interval(secs => (n / 3) / 1000.0),
         timestamptz '2026-02-01T00:00:00Z' - make_interval(secs => n), n, 1
       FROM generate_series(1, $1) AS n`,
      [many],
    );
    const store = createPostgresSessionStore(db);
    const everySession = (
      await db.query<{ agent_id: string; session_key: string; c: number; u: number; bytes: string }>(
        "test",
        `SELECT agent_id, session_key, (extract(epoch FROM created_at) * 1000)::float8 AS c,
           (extract(epoch FROM updated_at) * 1000)::float8 AS u, bytes FROM toolsift_sessions`,
      )
    ).rows.map((row) => ({
      agentId: row.agent_id,
      sessionKey: row.session_key,
      createdMs: row.c,
      updatedMs: row.u,
      bytes: Number(row.bytes),
    }));
    const filters = [undefined, (session: { agentId: string }) => session.agentId === "other"];
    for (const filter of filters) {
      for (const limit of [1, 50, SESSION_PAGE_SCAN_ROWS + 1]) {
        let after: string | undefined;
        let pages = 0;
        for (;;) {
          const options = { limit, ...(after ? { after } : {}), ...(filter ? { filter } : {}) };
          const page = await store.listPage!(options);
          expect(page).toEqual(pageSessions(everySession, options));
          pages += 1;
          after = page.data.at(-1)?.id;
          if (!page.hasMore || (limit === 1 && pages === 40)) break;
        }
      }
    }
  });
});

describe("createPostgresSessionStore: listPage searches by content", () => {
  contentSearchCases(async () => createPostgresSessionStore(db));
});

describe("createPostgresSessionStore: onAppended", () => {
  appendWatchCases(async () => createPostgresSessionStore(db));
});

describe("createPostgresSessionStore: probeWritable", () => {
  it("answers writable on a working database", async () => {
    expect(await createPostgresSessionStore(db).probeWritable?.()).toEqual({ writable: true });
  });

  it("answers not writable, naming the database and the fix, on a read-only database", async () => {
    const name = new URL(db.url).pathname.slice(1);
    await db.query("test", `ALTER DATABASE "${name}" SET default_transaction_read_only = on`);
    const readOnly = openPostgresPool(db.url);
    pools.push(readOnly);
    const reported: string[] = [];
    const status = await createPostgresSessionStore(readOnly, {
      onStorageFault: (line) => reported.push(line),
    }).probeWritable?.();
    expect(status).toEqual({ writable: false, reason: expect.stringContaining(`${name} is read-only`) });
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain("point state.url at the primary");
  });
});
