import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { migrateSchema, readSchemaStatus } from "./migrate-schema.js";
import { SCHEMA_VERSION } from "./migrations.js";
import { applySchemaOne } from "./migrations.test-support.js";
import { openPostgresPool, type PostgresPool } from "./open-postgres-pool.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";

let cluster: PostgresCluster;
const pools: PostgresPool[] = [];

function pool(url: string): PostgresPool {
  const opened = openPostgresPool(url);
  pools.push(opened);
  return opened;
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
});

afterAll(async () => {
  for (const opened of pools) await opened.end();
  await cluster?.destroy();
});

const every = Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1);

describe("migrateSchema", () => {
  it("applies every step once on an empty database, then nothing (idempotent)", async () => {
    const db = pool(await cluster.createDatabase("migrate"));
    expect(await readSchemaStatus(db)).toEqual({ version: 0, known: SCHEMA_VERSION, pending: every });
    const first = await migrateSchema(db);
    expect(first).toEqual({
      applied: every,
      status: { version: SCHEMA_VERSION, known: SCHEMA_VERSION, pending: [] },
    });
    const second = await migrateSchema(db);
    expect(second).toEqual({ applied: [], status: first.status });
    expect(await readSchemaStatus(db)).toEqual(first.status);
    const tables = await db.query<{ name: string }>(
      "test",
      "SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'toolsift_%' ORDER BY tablename",
    );
    expect(tables.rows.map((row) => row.name)).toEqual(
      expect.arrayContaining([
        "toolsift_migrations",
        "toolsift_responses",
        "toolsift_session_events",
        "toolsift_sessions",
      ]),
    );
  });

  it("five pools migrating at once apply each step exactly once", async () => {
    const url = await cluster.createDatabase("race");
    const results = await Promise.all(Array.from({ length: 5 }, () => migrateSchema(pool(url))));
    const applied = results.map((result) => result.applied);
    expect(applied.filter((versions) => versions.length > 0)).toEqual([every]);
    expect(applied.filter((versions) => versions.length === 0)).toHaveLength(4);
    for (const result of results) expect(result.status.pending).toEqual([]);
    const rows = await pools
      .at(-1)!
      .query<{ version: number }>("test", "SELECT version FROM toolsift_migrations");
    expect(rows.rows.map((row) => row.version).sort((a, b) => a - b)).toEqual(every);
  });

  it("refuses a database whose schema is newer than this build (CONFIG_INVALID), changing nothing", async () => {
    const db = pool(await cluster.createDatabase("newer"));
    await migrateSchema(db);
    await db.query("test", "INSERT INTO toolsift_migrations (version, name) VALUES ($1, 'from the future')", [
      SCHEMA_VERSION + 1,
    ]);
    const error = await migrateSchema(db).catch((thrown: unknown) => thrown);
    expect(isToolsiftError(error) && error.code).toBe("CONFIG_INVALID");
    expect((error as Error).message).toContain("upgrade toolsift");
    expect((await readSchemaStatus(db)).version).toBe(SCHEMA_VERSION + 1);
  });

  it("upgrades a database at schema 1 to 2 (console sessions), keeping what it holds", async () => {
    const db = pool(await cluster.createDatabase("v1"));
    await applySchemaOne(db);
    await db.query(
      "test",
      "INSERT INTO toolsift_responses (id, agent_id, session_key) VALUES ('resp_old', 'main', 's1')",
    );
    expect(await readSchemaStatus(db)).toMatchObject({ version: 1, pending: [2] });
    expect(await migrateSchema(db)).toEqual({
      applied: [2],
      status: { version: SCHEMA_VERSION, known: SCHEMA_VERSION, pending: [] },
    });
    const present = await db.query<{ present: boolean }>(
      "test",
      "SELECT to_regclass('toolsift_console_sessions') IS NOT NULL AS present",
    );
    expect(present.rows[0]?.present).toBe(true);
    const kept = await db.query<{ id: string }>("test", "SELECT id FROM toolsift_responses");
    expect(kept.rows).toEqual([{ id: "resp_old" }]);
  });
});
