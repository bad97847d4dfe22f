import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateSchema, readSchemaStatus } from "./migrate-schema.js";
import { SCHEMA_VERSION } from "./migrations.js";
import { applySchemaOne } from "./migrations.test-support.js";
import { openPostgresPool } from "./open-postgres-pool.js";
import { openPostgresState } from "./open-postgres-state.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";

let cluster: PostgresCluster;

beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 60_000);

afterAll(async () => {
  await cluster?.destroy();
});

describe("openPostgresState", () => {
  it("applies the schema at open and serves every part of the state", async () => {
    const url = await cluster.createDatabase("open");
    const lines: string[] = [];
    const state = await openPostgresState(url, { log: (line) => lines.push(line) });
    try {
      expect(state.kind).toBe("postgres");
      expect(lines.join("\n")).toContain("applied schema migrations 1");
      await state.sessions.append("main", "s1", {
        type: "session",
        version: 1,
        agentId: "main",
        sessionKey: "s1",
        at: new Date().toISOString(),
      });
      expect(await state.sessions.read("main", "s1")).toHaveLength(1);
      await state.responses.remember("resp_1", { agentId: "main", sessionKey: "s1" }, { id: "resp_1" });
      expect(await state.responses.stored("resp_1")).toEqual({ id: "resp_1" });
      const queue = state.createRunQueue({ maxQueuedPerSession: 1 });
      expect(await queue.run("main/s1", async () => "ran")).toBe("ran");
      expect(await state.probe()).toEqual({ writable: true });
      const signedIn = await state.consoleSessions.open("alice");
      expect(await state.consoleSessions.find(signedIn.id)).toEqual(signedIn);
      expect(await state.prune({ maxAgeDays: 30 })).toMatchObject({ removed: [] });
      expect(await state.consoleSessions.find(signedIn.id)).toEqual(signedIn);
    } finally {
      await state.close();
    }
  });

  it("opens while the database is down, answers 503-worthy faults, then applies the schema once it is back", async () => {
    const url = await cluster.createDatabase("late");
    await cluster.stopServer();
    const lines: string[] = [];
    let state: Awaited<ReturnType<typeof openPostgresState>> | undefined;
    try {
      state = await openPostgresState(url, { log: (line) => lines.push(line) });
      expect(lines.join("\n")).toContain("state database unreachable at start");
      const probe = await state.probe();
      expect(probe.writable).toBe(false);
      await expect(state.responses.lookup("resp_x")).rejects.toMatchObject({ code: "STORAGE_UNAVAILABLE" });
    } finally {
      await cluster.startServer();
    }
    try {
      expect(await state.probe()).toEqual({ writable: true });
      expect(lines.join("\n")).toContain("applied schema migrations 1");
      expect(await state.responses.lookup("resp_x")).toBeUndefined();
    } finally {
      await state.close();
    }
  });

  it("refuses a database whose schema is newer than this build, leaving nothing open", async () => {
    const url = await cluster.createDatabase("newer");
    const db = openPostgresPool(url);
    await migrateSchema(db);
    await db.query("test", "INSERT INTO toolsift_migrations (version, name) VALUES (999, 'from the future')");
    await db.end();
    await expect(openPostgresState(url)).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(/schema version 999, newer than this toolsift knows/u),
    });
  });

  it("upgrades a database at schema 1 at open (a gateway's start), and its console sessions work", async () => {
    const url = await cluster.createDatabase("v1");
    const db = openPostgresPool(url);
    await applySchemaOne(db);
    const lines: string[] = [];
    const state = await openPostgresState(url, { log: (line) => lines.push(line) });
    try {
      expect(lines.join("\n")).toContain("applied schema migrations 2");
      expect((await readSchemaStatus(db)).version).toBe(SCHEMA_VERSION);
      const session = await state.consoleSessions.open();
      expect(await state.consoleSessions.find(session.id)).toEqual(session);
      // prune removes console sessions expired by the database's clock, and only those.
      const kept = await state.consoleSessions.open("alice");
      await db.query(
        "test",
        "UPDATE toolsift_console_sessions SET created_at = created_at - interval '1 hour' WHERE key_id IS NULL",
      );
      await state.prune({});
      const left = await db.query<{ key_id: string | null }>(
        "test",
        "SELECT key_id FROM toolsift_console_sessions",
      );
      expect(left.rows).toEqual([{ key_id: "alice" }]);
      expect(await state.consoleSessions.find(kept.id)).toEqual(kept);
    } finally {
      await state.close();
      await db.end();
    }
  });
});
