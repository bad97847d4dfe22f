import type pg from "pg";
import { ToolsiftError } from "../../shared/errors/index.js";
import { MIGRATION_LOCK_KEY } from "./limits.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";
import type { PostgresPool } from "./open-postgres-pool.js";

/** Where the state schema stands. */
export interface SchemaStatus {
  /** The newest version applied to the database (0: none). */
  version: number;
  /** The newest version this build knows. */
  known: number;
  /** Versions this build knows and the database lacks, oldest first. */
  pending: number[];
}

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS toolsift_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
)`;

async function appliedVersions(client: pg.PoolClient): Promise<number[]> {
  const exists = await client.query<{ present: boolean }>(
    "SELECT to_regclass('toolsift_migrations') IS NOT NULL AS present",
  );
  if (exists.rows[0]?.present !== true) return [];
  const rows = await client.query<{ version: number }>(
    "SELECT version FROM toolsift_migrations ORDER BY version",
  );
  return rows.rows.map((row) => row.version);
}

function statusOf(applied: readonly number[]): SchemaStatus {
  const have = new Set(applied);
  return {
    version: applied.reduce((newest, version) => Math.max(newest, version), 0),
    known: SCHEMA_VERSION,
    pending: MIGRATIONS.filter((step) => !have.has(step.version)).map((step) => step.version),
  };
}

/** A database whose schema is newer than this build: refuse, rather than write rows it does not know. */
function tooNew(status: SchemaStatus): ToolsiftError {
  return new ToolsiftError(
    "CONFIG_INVALID",
    `The state database has schema version ${status.version}, newer than this toolsift knows (${status.known}): upgrade toolsift on this machine to the version the rest of the fleet runs.`,
  );
}

/** The schema's version and what is pending, read without changing anything. */
export async function readSchemaStatus(db: PostgresPool): Promise<SchemaStatus> {
  const action = "reading the schema version";
  const exists = await db.query<{ present: boolean }>(
    action,
    "SELECT to_regclass('toolsift_migrations') IS NOT NULL AS present",
  );
  if (exists.rows[0]?.present !== true) return statusOf([]);
  const rows = await db.query<{ version: number }>(
    action,
    "SELECT version FROM toolsift_migrations ORDER BY version",
  );
  return statusOf(rows.rows.map((row) => row.version));
}

/**
 * Applies every pending migration, in order, in one transaction holding an advisory lock: gateways that start
 * at once wait for each other and the later ones find nothing to do. Returns the versions applied now.
 * A database newer than this build is refused (CONFIG_INVALID).
 */
export async function migrateSchema(db: PostgresPool): Promise<{ applied: number[]; status: SchemaStatus }> {
  return db.transaction("applying the state schema", async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const before = statusOf(await appliedVersions(client));
    if (before.version > before.known) throw tooNew(before);
    const applied: number[] = [];
    for (const step of MIGRATIONS) {
      if (!before.pending.includes(step.version)) continue;
      await client.query(step.sql);
      await client.query("INSERT INTO toolsift_migrations (version, name) VALUES ($1, $2)", [
        step.version,
        step.name,
      ]);
      applied.push(step.version);
    }
    return { applied, status: statusOf(await appliedVersions(client)) };
  });
}
