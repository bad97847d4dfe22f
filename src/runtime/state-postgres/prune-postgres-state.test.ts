import { mkdtemp, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createFileSessionStore,
  pruneSessionLogs,
  type SessionEvent,
  sessionLogPath,
} from "../sessions/index.js";
import { PRUNE_SESSIONS_PER_STATEMENT } from "./limits.js";
import { migrateSchema } from "./migrate-schema.js";
import { openPostgresPool, type PostgresPool } from "./open-postgres-pool.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";
import { createPostgresResponseStore } from "./postgres-response-store.js";
import { createPostgresSessionStore } from "./postgres-session-store.js";
import { prunePostgresState } from "./prune-postgres-state.js";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

function userInput(text: string): SessionEvent {
  return {
    type: "user-input",
    at: "2026-01-01T00:00:00.000Z",
    items: [{ type: "message", role: "user", text }],
  };
}

let cluster: PostgresCluster;
let db: PostgresPool;
const pools: PostgresPool[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
});

afterAll(async () => {
  for (const pool of pools) await pool.end();
  await cluster?.destroy();
});

beforeEach(async () => {
  db = openPostgresPool(await cluster.createDatabase("prune"));
  pools.push(db);
  await migrateSchema(db);
});

/** Makes a session look last written `ageMs` ago (by the database's clock). */
async function age(sessionKey: string, ageMs: number): Promise<void> {
  await db.query(
    "test",
    "UPDATE toolsift_sessions SET updated_at = clock_timestamp() - make_interval(secs => $2) WHERE session_key = $1",
    [sessionKey, ageMs / 1000],
  );
}

async function count(table: string): Promise<number> {
  const result = await db.query<{ n: string }>("test", `SELECT count(*) AS n FROM ${table}`);
  return Number(result.rows[0]?.n);
}

describe("prunePostgresState", () => {
  it("removes nothing when no limit is set", async () => {
    const store = createPostgresSessionStore(db);
    await store.append("main", "old", userInput("x"));
    await age("old", 400 * DAY_MS);
    const report = await prunePostgresState(db);
    expect(report).toMatchObject({ removed: [], removedBytes: 0, removedResponses: 0 });
    expect(report.keptBytes).toBeGreaterThan(0);
  });

  it("removes sessions older than maxAgeDays with their events and stored responses", async () => {
    const sessions = createPostgresSessionStore(db);
    const responses = createPostgresResponseStore(db);
    for (const key of ["ancient", "recent", "fresh"]) {
      await sessions.append("main", key, userInput(`${key} 1`));
      await sessions.append("main", key, userInput(`${key} 2`));
      await responses.remember(`resp_${key}`, { agentId: "main", sessionKey: key }, { key });
    }
    await age("ancient", 10 * DAY_MS);
    await age("recent", 2 * DAY_MS);
    const [ancient] = (await sessions.list()).filter((session) => session.sessionKey === "ancient");
    const before = (await sessions.list()).reduce((sum, session) => sum + session.bytes, 0);

    const report = await prunePostgresState(db, { maxAgeDays: 5 });
    expect(report.removed).toEqual(["main/ancient"]);
    expect(report.removedBytes).toBe(ancient?.bytes);
    expect(report.keptBytes).toBe(before - (ancient?.bytes ?? 0));
    expect(report.removedResponses).toBe(1);
    expect(await sessions.read("main", "ancient")).toEqual([]);
    expect(await responses.lookup("resp_ancient")).toBeUndefined();
    expect(await sessions.read("main", "recent")).toHaveLength(2);
    expect(await responses.stored("resp_recent")).toEqual({ key: "recent" });
    expect(await count("toolsift_session_events")).toBe(4);
    // A removed session starts afresh when written again.
    await sessions.append("main", "ancient", userInput("new"));
    expect(await sessions.read("main", "ancient")).toHaveLength(1);
  });

  it("removes stored responses older than maxAgeDays, even of sessions kept", async () => {
    const sessions = createPostgresSessionStore(db);
    const responses = createPostgresResponseStore(db);
    await sessions.append("main", "live", userInput("x"));
    await responses.remember("resp_old", { agentId: "main", sessionKey: "live" }, { n: 1 });
    await responses.remember("resp_new", { agentId: "main", sessionKey: "live" }, { n: 2 });
    await db.query(
      "test",
      "UPDATE toolsift_responses SET created_at = clock_timestamp() - interval '8 days' WHERE id = 'resp_old'",
    );
    const report = await prunePostgresState(db, { maxAgeDays: 7 });
    expect(report).toMatchObject({ removed: [], removedResponses: 1 });
    expect(await responses.lookup("resp_old")).toBeUndefined();
    expect(await responses.lookup("resp_new")).toEqual({ agentId: "main", sessionKey: "live" });
  });

  it("past maxTotalBytes removes the oldest first, never a session written in the last hour", async () => {
    const sessions = createPostgresSessionStore(db);
    for (const key of ["a", "b", "c", "d"]) await sessions.append("main", key, userInput("x".repeat(1_000)));
    const size = (await sessions.list())[0]?.bytes ?? 0;
    await age("a", 3 * HOUR_MS);
    await age("b", 5 * HOUR_MS);
    await age("c", 30 * 60 * 1000);
    // d: just written. Limit: one session's worth. b then a go; c and d are in their grace.
    const report = await prunePostgresState(db, { maxTotalBytes: size });
    expect(report.removed).toEqual(["main/b", "main/a"]);
    expect(report.removedBytes).toBe(2 * size);
    expect(report.keptBytes).toBe(2 * size);
    expect((await sessions.list()).map((session) => session.sessionKey).sort()).toEqual(["c", "d"]);
    const withoutGrace = await prunePostgresState(db, { maxTotalBytes: size, activeGraceMs: 0 });
    expect(withoutGrace.removed).toEqual(["main/c"]);
  });

  it("keeps a session written between the pass reading it and removing it", async () => {
    const sessions = createPostgresSessionStore(db);
    await sessions.append("main", "busy", userInput("x"));
    await age("busy", 10 * DAY_MS);
    // Another gateway holds the session's row (as an append does while its statement runs).
    const writer = await db.pool.connect();
    try {
      await writer.query("BEGIN");
      await writer.query("SELECT 1 FROM toolsift_sessions WHERE session_key = 'busy' FOR UPDATE");
      const pruning = prunePostgresState(db, { maxAgeDays: 5 });
      // Wait until the pass's removal waits for that row.
      for (let tries = 0; tries < 200; tries += 1) {
        const waiting = await db.query<{ n: string }>(
          "test",
          "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        if (Number(waiting.rows[0]?.n) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await writer.query(
        "UPDATE toolsift_sessions SET updated_at = date_trunc('milliseconds', clock_timestamp()) WHERE session_key = 'busy'",
      );
      await writer.query("COMMIT");
      const report = await pruning;
      expect(report.removed).toEqual([]);
    } finally {
      writer.release();
    }
    expect(await sessions.read("main", "busy")).toHaveLength(1);
  });

  it("removes more sessions than one statement takes, all of them, oldest first", async () => {
    const many = PRUNE_SESSIONS_PER_STATEMENT * 2 + 17;
    await db.query(
      "test",
      `INSERT INTO toolsift_sessions (agent_id, session_key, updated_at, bytes, last_seq)
       SELECT 'main', 's' || lpad(n::text, 4, '0'), clock_timestamp() - make_interval(days => 30 + n), 10, 1
       FROM generate_series(1, $1) AS n`,
      [many],
    );
    await db.query(
      "test",
      `INSERT INTO toolsift_session_events (agent_id, session_key, seq, line)
       SELECT agent_id, session_key, 1, '{}' FROM toolsift_sessions`,
    );
    const report = await prunePostgresState(db, { maxAgeDays: 7 });
    expect(report.removed).toHaveLength(many);
    expect(report.removed[0]).toBe(`main/s${String(many).padStart(4, "0")}`);
    expect(report.removed.at(-1)).toBe("main/s0001");
    expect(report.removedBytes).toBe(10 * many);
    expect(await count("toolsift_sessions")).toBe(0);
    expect(await count("toolsift_session_events")).toBe(0);
  });

  it("removes what pruneSessionLogs removes for the same sessions, ages and sizes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolsift-prune-compare-"));
    try {
      const files = createFileSessionStore(dir);
      const postgres = createPostgresSessionStore(db);
      const ages: Array<[string, number]> = [
        ["s1", 40 * DAY_MS],
        ["s2", 20 * DAY_MS],
        ["s3", 9 * DAY_MS],
        ["s4", 5 * DAY_MS],
        ["s5", 2 * HOUR_MS],
        ["s6", 0],
      ];
      const now = Date.now();
      for (const [index, [key, ageMs]] of ages.entries()) {
        for (const store of [files, postgres]) {
          await store.append(
            index % 2 === 0 ? "main" : "other",
            key,
            userInput("y".repeat(500 * (index + 1))),
          );
        }
        const path = sessionLogPath(dir, index % 2 === 0 ? "main" : "other", key);
        await utimes(path, (now - ageMs) / 1000, (now - ageMs) / 1000);
        await age(key, ageMs);
      }
      const total = (await postgres.list()).reduce((sum, session) => sum + session.bytes, 0);
      const options = { maxAgeDays: 30, maxTotalBytes: Math.floor(total / 2) };
      const fromFiles = await pruneSessionLogs({ stateDir: dir, ...options, now: () => now });
      const fromPostgres = await prunePostgresState(db, options);
      const ids = fromFiles.removed.map(
        (path) => `${basename(dirname(dirname(path)))}/${basename(path, ".jsonl")}`,
      );
      expect(fromPostgres.removed).toEqual(ids);
      expect(fromPostgres.removed.length).toBeGreaterThan(1);
      expect(fromPostgres.removedBytes).toBe(fromFiles.removedBytes);
      expect(fromPostgres.keptBytes).toBe(fromFiles.keptBytes);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
