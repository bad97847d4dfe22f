import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";

// The throwaway cluster runs without fsync by default (tests), with PostgreSQL's durability when asked.

const clusters: PostgresCluster[] = [];

afterAll(async () => {
  for (const cluster of clusters) await cluster.destroy();
});

async function settings(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes')",
    );
    return Object.fromEntries(result.rows.map((row) => [row.name, row.setting]));
  } finally {
    await client.end();
  }
}

describe("startPostgresCluster", () => {
  it("turns fsync, synchronous commit and full page writes off by default", async () => {
    const cluster = await startPostgresCluster();
    clusters.push(cluster);
    expect(await settings(await cluster.createDatabase("fast"))).toEqual({
      fsync: "off",
      synchronous_commit: "off",
      full_page_writes: "off",
    });
  }, 60_000);

  it("keeps PostgreSQL's durable defaults when started with durable: true", async () => {
    const cluster = await startPostgresCluster({ durable: true });
    clusters.push(cluster);
    expect(await settings(await cluster.createDatabase("durable"))).toEqual({
      fsync: "on",
      synchronous_commit: "on",
      full_page_writes: "on",
    });
  }, 60_000);
});
