import { MIGRATIONS } from "./migrations.js";
import type { PostgresPool } from "./open-postgres-pool.js";

/** Leaves a database as a build that knew only schema version 1 did (to test upgrades from it). */
export async function applySchemaOne(db: PostgresPool): Promise<void> {
  const [first] = MIGRATIONS;
  if (first?.version !== 1) throw new Error("the first migration is version 1");
  await db.transaction("applying schema version 1", async (client) => {
    await client.query(
      "CREATE TABLE toolsift_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())",
    );
    await client.query(first.sql);
    await client.query("INSERT INTO toolsift_migrations (version, name) VALUES (1, $1)", [first.name]);
  });
}
