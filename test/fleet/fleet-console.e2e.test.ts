import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, startGatewayProcess } from "../../src/dev/qa/start-gateway-process.js";
import { consoleClient } from "../../src/front-doors/console/console-client.test-support.js";
import { CSRF_HEADER, SESSION_COOKIE } from "../../src/front-doors/console/console-paths.js";
import { FLEET_TOKENS, type Fleet, read, respond, startFleet } from "./fleet.test-support.js";

// The console on a fleet: alice's run opens a session and waits for an approval on gateway A; her console,
// signed in on gateway B, lists the session, reads its timeline and approves the call, and the run on A
// finishes. Bob's console on B sees none of it. The console reads the shared state through the API's own
// functions, so every gateway shows the same. Console sessions live in the database too: a browser signed in
// on one gateway is signed in on every gateway (no stickiness), and each gateway's own keys say who it is.

let fleet: Fleet;
let other: GatewayProcess | undefined;
let held: Promise<{ status: number }>;

beforeAll(async () => {
  fleet = await startFleet({ gateways: 2 });
  const [a] = fleet.gateways;
  if (!a) throw new Error("gateway A expected");
  expect((await respond(a, "alice", { input: "hello from A" }, "alice-a")).status).toBe(200);
  held = respond(a, "alice", { input: "target=touch_marker" }, "alice-held");
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const listed = (await read(a, "alice", "/v1/approvals")).body.approvals as unknown[];
    if (listed.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the call never waited for approval");
}, 60_000);

afterAll(async () => {
  await other?.kill();
  await fleet?.close();
});

/** A console API request to `gateway` with a cookie and CSRF token another gateway gave. */
async function carry(
  gateway: GatewayProcess,
  session: { cookie: string | undefined; csrf: unknown },
  method: "GET" | "POST",
  path: string,
): Promise<{ status: number; body: Record<string, unknown> & { error?: { code?: string } } }> {
  const response = await fetch(`${gateway.url}/console/api${path}`, {
    method,
    headers: {
      cookie: `${SESSION_COOKIE}=${session.cookie}`,
      [CSRF_HEADER]: String(session.csrf),
      "sec-fetch-site": "same-origin",
      ...(method === "POST" ? { origin: gateway.url, "content-type": "application/json" } : {}),
    },
    ...(method === "POST" ? { body: "{}" } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the console on another gateway of the fleet", () => {
  it("alice's console on B lists her session from A, reads it, and approves the call A waits on", async () => {
    const b = fleet.gateways[1];
    if (!b) throw new Error("gateway B expected");
    const alice = consoleClient(b.url);
    expect((await alice.login(FLEET_TOKENS.ALICE_TOKEN)).status).toBe(200);
    const sessions = (await alice.send("GET", "/sessions")).body.data as Array<{ sessionKey: string }>;
    expect(sessions.map((row) => row.sessionKey).sort()).toEqual(["alice-a", "alice-held"]);
    const timeline = await alice.send("GET", "/session-events?agent=main&key=alice-a");
    expect(timeline.status).toBe(200);
    expect(JSON.stringify(timeline.body.events)).toContain("hello from A");

    const bob = consoleClient(b.url);
    expect((await bob.login(FLEET_TOKENS.BOB_TOKEN)).status).toBe(200);
    expect((await bob.send("GET", "/sessions")).body.data).toEqual([]);
    expect((await bob.send("GET", "/approvals")).body.approvals).toEqual([]);

    const pending = (await alice.send("GET", "/approvals")).body.approvals as Array<{
      id: string;
      sessionKey: string;
    }>;
    expect(pending.map((row) => row.sessionKey)).toEqual(["alice-held"]);
    const id = pending[0]?.id ?? "";
    expect((await bob.send("POST", `/approvals/${id}`, { body: { decision: "allow" } })).status).toBe(404);
    const decided = await alice.send("POST", `/approvals/${id}`, {
      body: { decision: "allow", note: "from B" },
    });
    expect(decided).toMatchObject({ status: 200, body: { id, decision: "allow" } });
    expect((await held).status).toBe(200);
    expect(fleet.markerRuns()).toBe(1);
  });

  it("a console session made on A is signed in on B; a gateway without the key ends it, with other scopes narrows it", async () => {
    const [a, b] = fleet.gateways;
    if (!a || !b) throw new Error("gateways A and B expected");
    const bob = consoleClient(a.url);
    const bobLogin = await bob.login(FLEET_TOKENS.BOB_TOKEN);
    expect(bobLogin.status).toBe(200);
    const bobSession = { cookie: bob.cookie, csrf: bobLogin.body.csrf };
    expect(await carry(b, bobSession, "GET", "/session")).toMatchObject({
      status: 200,
      body: { signedIn: true, keyId: "bob", csrf: bobLogin.body.csrf },
    });
    expect((await carry(b, bobSession, "GET", "/sessions")).status).toBe(200);

    const alice = consoleClient(a.url);
    const aliceLogin = await alice.login(FLEET_TOKENS.ALICE_TOKEN);
    const aliceSession = { cookie: alice.cookie, csrf: aliceLogin.body.csrf };

    // Gateway C on the same database, its config without bob and with alice narrowed to `runs`.
    const config = JSON.parse(await readFile(fleet.configPath, "utf8")) as {
      gateway: { auth: { keys: Array<{ id: string; scopes: string[] }> } };
    };
    config.gateway.auth.keys = config.gateway.auth.keys
      .filter((key) => key.id !== "bob")
      .map((key) => (key.id === "alice" ? { ...key, scopes: ["runs"] } : key));
    const otherConfig = join(fleet.root, "toolsift-without-bob.json");
    await writeFile(otherConfig, JSON.stringify(config));
    await mkdir(join(fleet.root, "state-without-bob"), { recursive: true });
    other = await startGatewayProcess({ configPath: otherConfig, env: fleet.env("without-bob") });
    const c = other;

    const aliceOnC = await carry(c, aliceSession, "GET", "/sessions");
    expect([aliceOnC.status, aliceOnC.body.error?.code]).toEqual([403, "insufficient_scope"]);
    expect((await carry(c, aliceSession, "GET", "/session")).body).toMatchObject({
      signedIn: true,
      keyId: "alice",
      scopes: ["runs"],
    });
    expect((await carry(a, aliceSession, "GET", "/sessions")).status).toBe(200);

    const bobOnC = await carry(c, bobSession, "GET", "/sessions");
    expect([bobOnC.status, bobOnC.body.error?.code]).toEqual([401, "console_login_required"]);
    expect(c.stderr()).toContain(
      "console: key bob is not configured on this gateway: its console session ended",
    );
    // Ended in the shared database: A and B, which still know bob, no longer find it either.
    for (const gateway of [a, b]) {
      const after = await carry(gateway, bobSession, "GET", "/sessions");
      expect([after.status, after.body.error?.code]).toEqual([401, "console_login_required"]);
    }

    // A logout through C ends alice's session everywhere.
    expect((await carry(c, aliceSession, "POST", "/logout")).status).toBe(200);
    expect((await carry(a, aliceSession, "GET", "/sessions")).status).toBe(401);

    // The database keeps the digest of a cookie, never the cookie.
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: fleet.databaseUrl });
    await client.connect();
    try {
      const rows = await client.query("SELECT t::text AS text FROM toolsift_console_sessions t");
      expect(rows.rows.length).toBeGreaterThan(0);
      for (const { text } of rows.rows as Array<{ text: string }>) {
        expect(text).not.toContain(String(bob.cookie));
        expect(text).not.toContain(String(alice.cookie));
      }
    } finally {
      await client.end();
    }
  }, 60_000);
});
