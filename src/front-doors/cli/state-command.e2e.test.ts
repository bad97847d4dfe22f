import { rm } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../module-trace.test-support.js";
import { openPostgresPool, SCHEMA_VERSION } from "../../runtime/state-postgres/index.js";
import { applySchemaOne } from "../../runtime/state-postgres/migrations.test-support.js";
import {
  type PostgresCluster,
  startPostgresCluster,
} from "../../runtime/state-postgres/postgres-cluster.test-support.js";
import { type CliHome, createCliHome, runBuiltCli } from "./built-cli.test-support.js";

const PASSWORD = "hunter2-secret";

let cluster: PostgresCluster;
let home: CliHome;
let url = "";
let shownUrl = "";

beforeAll(async () => {
  ensureBuilt();
  cluster = await startPostgresCluster();
  const plain = new URL(await cluster.createDatabase("state_cli"));
  // The throwaway cluster trusts 127.0.0.1, so the password is never asked: it is there to prove it is never printed.
  plain.password = PASSWORD;
  url = plain.toString();
  shownUrl = url.replace(PASSWORD, "***");
  home = await createCliHome("toolsift-state-cli-", () => ({ state: { url: "env:FLEET_DB" } }));
  home.env.FLEET_DB = url;
}, 300_000);

afterAll(async () => {
  await cluster?.destroy();
  if (home) await rm(home.root, { recursive: true, force: true });
});

const cli = (...args: string[]) => runBuiltCli(args, home.env, { boundMs: 60_000 });

async function sql(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

describe.sequential("toolsift state status | migrate against a real PostgreSQL", () => {
  it("status before migrate: schema 0, every migration pending, no counts", async () => {
    const text = await cli("state", "status");
    expect(text).toMatchObject({ code: 0, stderr: "" });
    expect(text.stdout).toBe(
      [
        `State: PostgreSQL ${shownUrl}`,
        `Schema: version 0; this toolsift knows ${SCHEMA_VERSION}`,
        "Pending migrations: 2 (versions 1, 2): run toolsift state migrate, or start a gateway (it applies them)",
        "",
      ].join("\n"),
    );
    const named = await cli("state", "status", "--config", home.configPath);
    expect(named.stdout).toContain(
      `run toolsift state migrate --config ${home.configPath}, or start a gateway`,
    );
    const json = await cli("state", "status", "--json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      store: "postgresql",
      url: shownUrl,
      schema: { version: 0, known: SCHEMA_VERSION, pending: [1, 2] },
    });
  });

  it("migrate applies the pending migrations", async () => {
    const outcome = await cli("state", "migrate");
    expect(outcome).toEqual({
      code: 0,
      stdout: `Applied migrations 1, 2 to ${shownUrl}: schema version ${SCHEMA_VERSION}.\n`,
      stderr: "",
    });
  });

  it("status after migrate: up to date, with the counts of what the database holds", async () => {
    await sql("INSERT INTO toolsift_sessions (agent_id, session_key) VALUES ('main', 'a'), ('main', 'b')");
    await sql("INSERT INTO toolsift_responses (id, agent_id, session_key) VALUES ('resp_1', 'main', 'a')");
    await sql(
      `INSERT INTO toolsift_approvals (id, request, gateway_id, created_at, expires_at, decision) VALUES
        ('ap_pending', '{}', 'gw1', now(), now() + interval '1 hour', NULL),
        ('ap_expired', '{}', 'gw1', now() - interval '2 hours', now() - interval '1 hour', NULL),
        ('ap_decided', '{}', 'gw1', now(), now() + interval '1 hour', 'allow')`,
    );
    await sql(
      `INSERT INTO toolsift_gateways (id, host, pid, heartbeat_at) VALUES
        ('gw1', 'host-a', 101, now()), ('gw0', 'host-b', 102, now() - interval '10 minutes')`,
    );
    const text = await cli("state", "status");
    expect(text).toMatchObject({ code: 0, stderr: "" });
    expect(text.stdout).toBe(
      [
        `State: PostgreSQL ${shownUrl}`,
        `Schema: version ${SCHEMA_VERSION} (up to date)`,
        "Sessions: 2",
        "Stored responses: 1",
        "Pending approvals: 1",
        "Live gateways: 1 (heartbeat in the last 5 s)",
        "",
      ].join("\n"),
    );
    const json = await cli("state", "status", "--json", "--config", home.configPath);
    expect(JSON.parse(json.stdout)).toEqual({
      store: "postgresql",
      url: shownUrl,
      schema: { version: SCHEMA_VERSION, known: SCHEMA_VERSION, pending: [] },
      counts: { sessions: 2, storedResponses: 1, pendingApprovals: 1, liveGateways: 1 },
    });
  });

  it("migrate again: up to date", async () => {
    expect(await cli("state", "migrate")).toEqual({
      code: 0,
      stdout: `State database ${shownUrl} is up to date (schema version ${SCHEMA_VERSION}).\n`,
      stderr: "",
    });
  });

  it("a database at schema 1 (console sessions not yet shared): migrate upgrades it to 2", async () => {
    const v1 = new URL(await cluster.createDatabase("state_cli_v1"));
    const pool = openPostgresPool(v1.toString());
    try {
      await applySchemaOne(pool);
    } finally {
      await pool.end();
    }
    const env = { ...home.env, FLEET_DB: v1.toString() };
    const before = await runBuiltCli(["state", "status"], env);
    expect(before.stdout).toContain(
      "Pending migrations: 1 (version 2): run toolsift state migrate, or start a gateway (it applies them)",
    );
    expect(await runBuiltCli(["state", "migrate"], env)).toEqual({
      code: 0,
      stdout: `Applied migration 2 to ${v1.toString()}: schema version ${SCHEMA_VERSION}.\n`,
      stderr: "",
    });
    expect((await runBuiltCli(["state", "status"], env)).stdout).toContain(
      `Schema: version ${SCHEMA_VERSION} (up to date)`,
    );
  });

  it("a schema newer than this build: status and migrate fail, telling to upgrade", async () => {
    await sql("INSERT INTO toolsift_migrations (version, name) VALUES ($1, 'from the future')", [
      SCHEMA_VERSION + 1,
    ]);
    try {
      const upgrade = `The state database has schema version ${SCHEMA_VERSION + 1}, newer than this toolsift knows (${SCHEMA_VERSION}): upgrade toolsift on this machine to the version the rest of the fleet runs.`;
      const migrate = await cli("state", "migrate");
      expect(migrate).toEqual({ code: 1, stdout: "", stderr: `error: ${upgrade}\n` });
      const status = await cli("state", "status");
      expect(status.code).toBe(1);
      expect(status.stdout).toContain(
        `Schema: version ${SCHEMA_VERSION + 1}, newer than this toolsift knows (${SCHEMA_VERSION})`,
      );
      expect(status.stderr).toBe(`error: ${upgrade}\n`);
    } finally {
      await sql("DELETE FROM toolsift_migrations WHERE version = $1", [SCHEMA_VERSION + 1]);
    }
  });

  it("the server stopped: exit 1, the message names the database (never its password) and the fix", async () => {
    await cluster.stopServer();
    try {
      for (const command of ["status", "migrate"]) {
        const outcome = await cli("state", command);
        expect(outcome.code).toBe(1);
        expect(outcome.stdout).toBe("");
        expect(outcome.stderr).toMatch(
          new RegExp(
            `^error: The state database ${escapeRegExp(shownUrl)} is unavailable \\(.*ECONNREFUSED.*\\)\\. Check that PostgreSQL is running and reachable at state\\.url \\(or TOOLSIFT_STATE_URL\\)`,
            "u",
          ),
        );
        expect(outcome.stderr).not.toContain(PASSWORD);
        expect(outcome.stderr).not.toMatch(/\n\s+at /u);
      }
    } finally {
      await cluster.startServer();
    }
  }, 60_000);

  it("a database that does not exist: exit 1 naming it", async () => {
    const missing = new URL(url);
    missing.pathname = "/no_such_database";
    const outcome = await runBuiltCli(["state", "status"], { ...home.env, FLEET_DB: missing.toString() });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(
      `error: The state database ${missing.toString().replace(PASSWORD, "***")} refused toolsift (database "no_such_database" does not exist).`,
    );
    expect(outcome.stderr).not.toContain(PASSWORD);
  });
});

describe("toolsift state without a state database", () => {
  it("status says state is in files under the state directory; migrate has nothing to do", async () => {
    const env = { ...home.env, FLEET_DB: "", TOOLSIFT_STATE_URL: "" };
    const stateDir = join(home.root, "state");
    const status = await runBuiltCli(["state", "status"], env);
    expect(status.code).toBe(0);
    expect(status.stderr).toBe("config: state.url: environment variable FLEET_DB is empty\n");
    expect(status.stdout.split("\n")[0]).toBe(
      `State: files under ${stateDir} (sessions as JSONL files; stored responses and pending approvals in each gateway's memory).`,
    );
    const json = await runBuiltCli(["state", "status", "--json"], env);
    expect(JSON.parse(json.stdout)).toEqual({ store: "files", stateDir });
    const migrate = await runBuiltCli(["state", "migrate"], env);
    expect(migrate).toMatchObject({
      code: 0,
      stdout: `Nothing to migrate: state.url and TOOLSIFT_STATE_URL are unset, so state is in files under ${stateDir}.\n`,
    });
  });

  it("a TOOLSIFT_STATE_URL that is not postgresql:// is refused naming the variable, exit 1", async () => {
    const env = { ...home.env, FLEET_DB: "", TOOLSIFT_STATE_URL: "https://user:hunter2-secret@db/x" };
    const outcome = await runBuiltCli(["state", "status"], env);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(
      "error: environment variable TOOLSIFT_STATE_URL must be a postgresql:// URL, not https://…",
    );
    expect(outcome.stderr).not.toContain(PASSWORD);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}
