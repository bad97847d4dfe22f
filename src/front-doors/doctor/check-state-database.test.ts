import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrateSchema, openPostgresPool, SCHEMA_VERSION } from "../../runtime/state-postgres/index.js";
import {
  type PostgresCluster,
  startPostgresCluster,
} from "../../runtime/state-postgres/postgres-cluster.test-support.js";
import { createInstallation, type Installation } from "./doctor.test-support.js";
import { runDoctor } from "./run-doctor.js";
import type { DoctorReport } from "./types.js";

let cluster: PostgresCluster;
let home: Installation;

beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 120_000);

afterAll(async () => {
  await cluster?.destroy();
});

beforeEach(async () => {
  home = await createInstallation();
});

afterEach(async () => {
  await home.cleanup();
});

const stateChecks = (report: DoctorReport) =>
  report.checks.filter((check) => check.name.startsWith("state-"));

/** A URL with a password the trust-auth cluster ignores, to prove doctor never prints it. */
function withPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = "hunter2-secret";
  return parsed.toString();
}

async function tableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'",
    );
    return Number(result.rows[0]?.n);
  } finally {
    await client.end();
  }
}

async function migrate(url: string): Promise<void> {
  const db = openPostgresPool(url);
  try {
    await migrateSchema(db);
  } finally {
    await db.end();
  }
}

describe("doctor with state.url", () => {
  it("an empty database: warns that migrations are pending, and applies none", async () => {
    const url = withPassword(await cluster.createDatabase("doctor_empty"));
    await home.writeConfig(JSON.stringify({ state: { url } }));
    const report = await runDoctor({ env: home.env });
    expect(stateChecks(report)).toEqual([
      expect.objectContaining({ name: "state-dir", status: "ok" }),
      {
        name: "state-database",
        status: "warn",
        message: `state database ${url.replace("hunter2-secret", "***")} answers, schema version 0: 2 pending migrations (1, 2) to reach ${SCHEMA_VERSION}`,
        fix: "a gateway applies them when it starts; toolsift state migrate applies them now",
      },
    ]);
    expect(report.ok).toBe(true);
    expect(JSON.stringify(report)).not.toContain("hunter2-secret");
    expect(await tableCount(url)).toBe(0);
  });

  it("a migrated database (named by TOOLSIFT_STATE_URL): ok with the schema version", async () => {
    const url = await cluster.createDatabase("doctor_current");
    await migrate(url);
    await home.writeConfig("{}");
    const report = await runDoctor({ env: { ...home.env, TOOLSIFT_STATE_URL: url } });
    expect(stateChecks(report).at(-1)).toEqual({
      name: "state-database",
      status: "ok",
      message: `state database ${url} answers, schema version ${SCHEMA_VERSION} (up to date)`,
    });
    expect(report.ok).toBe(true);
  });

  it("an env: reference in state.url is resolved", async () => {
    const url = await cluster.createDatabase("doctor_reference");
    await migrate(url);
    await home.writeConfig('{ state: { url: "env:FLEET_DB" } }');
    const report = await runDoctor({ env: { ...home.env, FLEET_DB: url } });
    expect(stateChecks(report).at(-1)).toMatchObject({ name: "state-database", status: "ok" });
  });

  it("a schema newer than this build is an error", async () => {
    const url = await cluster.createDatabase("doctor_newer");
    await migrate(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("INSERT INTO toolsift_migrations (version, name) VALUES ($1, 'from the future')", [
      SCHEMA_VERSION + 1,
    ]);
    await client.end();
    await home.writeConfig(JSON.stringify({ state: { url } }));
    const report = await runDoctor({ env: home.env });
    expect(stateChecks(report).at(-1)).toEqual({
      name: "state-database",
      status: "error",
      message: `state database ${url} has schema version ${SCHEMA_VERSION + 1}, newer than this toolsift knows (${SCHEMA_VERSION}); this toolsift's gateway will not start on it`,
      fix: "upgrade toolsift on this machine to the version the rest of the fleet runs",
    });
    expect(report.ok).toBe(false);
  });

  it("a database that does not exist is an error naming it, without the password", async () => {
    const url = withPassword(`${cluster.adminUrl.replace(/\/postgres$/u, "")}/no_such_database`);
    await home.writeConfig(JSON.stringify({ state: { url } }));
    const report = await runDoctor({ env: home.env });
    const check = stateChecks(report).at(-1);
    expect(check).toMatchObject({ name: "state-database", status: "error" });
    expect(check?.message).toContain("no_such_database");
    expect(check?.message).toContain('database "no_such_database" does not exist');
    expect(JSON.stringify(report)).not.toContain("hunter2-secret");
  });

  it("a bad TOOLSIFT_STATE_URL is an error naming the variable", async () => {
    await home.writeConfig("{}");
    const report = await runDoctor({ env: { ...home.env, TOOLSIFT_STATE_URL: "mysql://db/toolsift" } });
    expect(stateChecks(report).at(-1)).toMatchObject({
      name: "state-database",
      status: "error",
      message: expect.stringContaining("environment variable TOOLSIFT_STATE_URL must be a postgresql:// URL"),
    });
  });

  it("no state URL: only the state-dir check, as before", async () => {
    await home.writeConfig("{}");
    const report = await runDoctor({ env: home.env });
    expect(stateChecks(report).map((check) => check.name)).toEqual(["state-dir"]);
  });

  // Last: it stops the server, which the other tests need.
  it("an unreachable server is an error naming the database and the fix, without the password", async () => {
    const url = withPassword(await cluster.createDatabase("doctor_down"));
    await home.writeConfig(JSON.stringify({ state: { url } }));
    await cluster.stopServer();
    try {
      const report = await runDoctor({ env: home.env });
      const check = stateChecks(report).at(-1);
      expect(check).toMatchObject({ name: "state-database", status: "error" });
      expect(check?.message).toContain(
        `The state database ${url.replace("hunter2-secret", "***")} is unavailable`,
      );
      expect(check?.fix).toContain("check that PostgreSQL is running");
      expect(JSON.stringify(report)).not.toContain("hunter2-secret");
      expect(report.ok).toBe(false);
    } finally {
      await cluster.startServer();
    }
  }, 30_000);
});
