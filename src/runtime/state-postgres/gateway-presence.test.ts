import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./fleet-gateway.test-support.js";
import { startGatewayPresence } from "./gateway-presence.js";
import { migrateSchema } from "./migrate-schema.js";
import { openPostgresPool, type PostgresPool } from "./open-postgres-pool.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";

let cluster: PostgresCluster;
let db: PostgresPool;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  db = openPostgresPool(await cluster.createDatabase("presence"), { onIdleError: () => undefined });
  await migrateSchema(db);
}, 60_000);

afterAll(async () => {
  await db?.end();
  await cluster?.destroy();
});

type Row = { host: string; pid: number; heartbeat_at: Date; live: boolean };

async function row(presence: { id: string; liveSql(column: string): string }): Promise<Row | undefined> {
  const rows = await db.query<Row>(
    "reading a gateway",
    `SELECT host, pid, heartbeat_at, ${presence.liveSql("g.id")} AS live FROM toolsift_gateways g WHERE id = $1`,
    [presence.id],
  );
  return rows.rows[0];
}

describe("startGatewayPresence", () => {
  it("registers this process, refreshes its heartbeat, and removes its row on close", async () => {
    const presence = await startGatewayPresence(db, { heartbeatMs: 50 });
    const first = await row(presence);
    expect(first).toMatchObject({ pid: process.pid, live: true });
    await eventually("a later heartbeat", async () => {
      const now = await row(presence);
      return now !== undefined && first !== undefined && now.heartbeat_at > first.heartbeat_at;
    });
    await presence.close();
    expect(await row(presence)).toBeUndefined();
    await presence.close();
  });

  it("counts a gateway as dead once its heartbeat is older than the TTL, by the database's clock", async () => {
    const presence = await startGatewayPresence(db, { heartbeatMs: 60_000, ttlMs: 300 });
    try {
      expect((await row(presence))?.live).toBe(true);
      await eventually("the heartbeat lapsing", async () => (await row(presence))?.live === false);
    } finally {
      await presence.close();
    }
  });

  it("logs one line per outage, never throws, and resumes heartbeats by itself", async () => {
    const logs: string[] = [];
    const presence = await startGatewayPresence(db, { heartbeatMs: 50, log: (line) => logs.push(line) });
    try {
      await cluster.stopServer();
      try {
        await eventually("a logged failure", () => logs.length > 0);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(logs).toHaveLength(1);
        expect(logs[0]).toContain("heartbeat failed");
      } finally {
        await cluster.startServer();
      }
      await eventually("heartbeats resumed", () => logs.some((line) => line.includes("resumed")), 15_000);
      expect((await row(presence))?.live).toBe(true);
    } finally {
      await presence.close();
    }
  }, 30_000);
});
