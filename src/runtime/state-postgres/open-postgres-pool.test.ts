import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresPool } from "./open-postgres-pool.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";

let cluster: PostgresCluster;
let url: string;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  url = await cluster.createDatabase("pool");
}, 60_000);

afterAll(async () => {
  await cluster?.destroy();
});

describe("openPostgresPool", () => {
  it("survives the server ending a connection it lent out between two statements of a transaction", async () => {
    const db = openPostgresPool(url);
    const admin = openPostgresPool(url);
    try {
      const outcome = db.transaction("a slow transaction", async (client) => {
        const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
        // The server ends this connection while the transaction waits outside any statement.
        await admin.query("terminating", "SELECT pg_terminate_backend($1)", [pid]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await client.query("SELECT 1");
      });
      await expect(outcome).rejects.toMatchObject({ code: "STORAGE_UNAVAILABLE" });
      // The pool goes on with a fresh connection.
      const rows = await db.query<{ one: number }>("after", "SELECT 1 AS one");
      expect(rows.rows[0]?.one).toBe(1);
    } finally {
      await db.end();
      await admin.end();
    }
  });

  it("cancels a statement past the statement timeout, as the database being unable to serve", async () => {
    const db = openPostgresPool(url, { statementTimeoutMs: 200 });
    try {
      await expect(db.query("a slow statement", "SELECT pg_sleep(2)")).rejects.toMatchObject({
        code: "STORAGE_UNAVAILABLE",
        message: expect.stringMatching(/a slow statement: canceling statement due to statement timeout/u),
      });
      expect((await db.query<{ one: number }>("after", "SELECT 1 AS one")).rows[0]?.one).toBe(1);
    } finally {
      await db.end();
    }
  });

  it("refuses a URL that is not postgresql://, naming the setting", () => {
    expect(() => openPostgresPool("mysql://localhost/db")).toThrow(/state\.url .* postgresql:\/\//u);
    expect(() => openPostgresPool("not a url")).toThrow(/state\.url .* not a URL/u);
  });
});
