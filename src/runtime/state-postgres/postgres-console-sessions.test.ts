import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeConsoleSessionStore } from "../state/console-session-store.test-support.js";
import { CONSOLE_IDLE_MS, CONSOLE_MAX_AGE_MS, PENDING_LOGIN_MS } from "../state/index.js";
import { migrateSchema } from "./migrate-schema.js";
import { openPostgresPool, type PostgresPool } from "./open-postgres-pool.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";
import {
  consoleSessionDigest,
  createPostgresConsoleSessionStore,
  forgetExpiredConsoleSessions,
} from "./postgres-console-sessions.js";

let cluster: PostgresCluster;
const pools: PostgresPool[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 60_000);

afterAll(async () => {
  for (const pool of pools) await pool.end();
  await cluster?.destroy();
});

async function migratedPool(url?: string): Promise<PostgresPool> {
  const db = openPostgresPool(url ?? (await cluster.createDatabase("console")));
  pools.push(db);
  await migrateSchema(db);
  return db;
}

async function sizeOf(db: PostgresPool): Promise<{ pending: number; signedIn: number }> {
  const result = await db.query<{ pending: number; signed_in: number }>(
    "test",
    `SELECT count(*) FILTER (WHERE key_id IS NULL)::integer AS pending,
       count(*) FILTER (WHERE key_id IS NOT NULL)::integer AS signed_in FROM toolsift_console_sessions`,
  );
  return { pending: result.rows[0]?.pending ?? -1, signedIn: result.rows[0]?.signed_in ?? -1 };
}

/** Moves a session's times back by `ms` (by the database's clock): created, last seen, or both. */
async function age(db: PostgresPool, id: string, ms: number, column: "created_at" | "last_seen_at" | "both") {
  const columns = column === "both" ? ["created_at", "last_seen_at"] : [column];
  const set = columns.map((name) => `${name} = ${name} - make_interval(secs => $2)`).join(", ");
  await db.query("test", `UPDATE toolsift_console_sessions SET ${set} WHERE id_digest = $1`, [
    consoleSessionDigest(id),
    ms / 1000,
  ]);
}

describeConsoleSessionStore("createPostgresConsoleSessionStore", async () => {
  const db = await migratedPool();
  return { store: createPostgresConsoleSessionStore(db), size: () => sizeOf(db) };
});

describe("createPostgresConsoleSessionStore", () => {
  it("stores the SHA-256 digest of the id, never the id; the CSRF token and the key id, no scopes or token", async () => {
    const db = await migratedPool();
    const store = createPostgresConsoleSessionStore(db);
    const session = await store.open("alice");
    const rows = await db.query<Record<string, unknown>>("test", "SELECT * FROM toolsift_console_sessions");
    expect(rows.rows).toHaveLength(1);
    const row = rows.rows[0] ?? {};
    expect(Object.keys(row).sort()).toEqual([
      "created_at",
      "csrf",
      "id_digest",
      "key_id",
      "last_seen_at",
      "seq",
    ]);
    expect(row.id_digest).toEqual(consoleSessionDigest(session.id));
    expect(row.csrf).toBe(session.csrf);
    expect(row.key_id).toBe("alice");
    expect(JSON.stringify(rows.rows)).not.toContain(session.id);
    const asText = await db.query<{ text: string }>(
      "test",
      "SELECT t::text AS text FROM toolsift_console_sessions t",
    );
    expect(asText.rows[0]?.text).not.toContain(session.id);
    expect(asText.rows[0]?.text).not.toContain(Buffer.from(session.id).toString("hex"));
  });

  it("two pools (two gateways) see the same session; a close through one ends it for the other", async () => {
    const url = await cluster.createDatabase("console-two");
    const a = createPostgresConsoleSessionStore(await migratedPool(url));
    const b = createPostgresConsoleSessionStore(await migratedPool(url));
    const session = await a.open("alice");
    expect(await b.find(session.id)).toEqual(session);
    const waiting = await b.open();
    expect(await a.find(waiting.id)).toEqual(waiting);
    await b.close(session.id);
    expect(await a.find(session.id)).toBeUndefined();
  });

  it("expires by the database's clock: idle, maximum age, and pages waiting for a login", async () => {
    const db = await migratedPool();
    const store = createPostgresConsoleSessionStore(db);
    const idle = await store.open("alice");
    await age(db, idle.id, CONSOLE_IDLE_MS - 5_000, "last_seen_at");
    expect(await store.find(idle.id)).toEqual(idle); // marked used again now
    await age(db, idle.id, CONSOLE_IDLE_MS + 1_000, "last_seen_at");
    expect(await store.isSignedIn(idle.id)).toBe(false);
    expect(await store.find(idle.id)).toBeUndefined();

    const old = await store.open("alice");
    await age(db, old.id, CONSOLE_MAX_AGE_MS - 5_000, "created_at");
    expect(await store.find(old.id)).toEqual(old);
    await age(db, old.id, 10_000, "created_at");
    expect(await store.find(old.id)).toBeUndefined();

    const waiting = await store.open();
    await age(db, waiting.id, PENDING_LOGIN_MS - 5_000, "created_at");
    expect(await store.find(waiting.id)).toEqual(waiting);
    await age(db, waiting.id, 10_000, "created_at");
    expect(await store.find(waiting.id)).toBeUndefined();
  });

  it("removes expired rows when pruned, and an open removes the expired ones of its kind", async () => {
    const db = await migratedPool();
    const store = createPostgresConsoleSessionStore(db);
    const idle = await store.open("alice");
    const waiting = await store.open();
    const live = await store.open("bob");
    await age(db, idle.id, CONSOLE_IDLE_MS + 1_000, "both");
    await age(db, waiting.id, PENDING_LOGIN_MS + 1_000, "both");
    expect(await sizeOf(db)).toEqual({ pending: 1, signedIn: 2 });
    await store.open("carol");
    expect(await sizeOf(db)).toEqual({ pending: 1, signedIn: 2 }); // alice's idle row went, carol's came
    expect(await forgetExpiredConsoleSessions(db)).toBe(1); // the waiting page
    expect(await sizeOf(db)).toEqual({ pending: 0, signedIn: 2 });
    expect((await store.find(live.id))?.keyId).toBe("bob");
  });

  it("keeps the bounds when gateways open sessions at once", async () => {
    const url = await cluster.createDatabase("console-race");
    const stores = await Promise.all(
      Array.from({ length: 4 }, async () => createPostgresConsoleSessionStore(await migratedPool(url))),
    );
    const db = pools.at(-1) as PostgresPool;
    await Promise.all(
      stores.map(async (store) => {
        for (let index = 0; index < 10; index += 1) await store.open("alice");
      }),
    );
    expect(await sizeOf(db)).toEqual({ pending: 0, signedIn: 16 });
  });

  it("a database fault rejects with STORAGE_UNAVAILABLE", async () => {
    const db = openPostgresPool("postgresql://nobody@127.0.0.1:1/none");
    pools.push(db);
    const store = createPostgresConsoleSessionStore(db);
    await expect(store.find("x")).rejects.toMatchObject({ code: "STORAGE_UNAVAILABLE" });
    await expect(store.open("alice")).rejects.toMatchObject({ code: "STORAGE_UNAVAILABLE" });
  });
});
