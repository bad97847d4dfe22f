import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient } from "../../src/front-doors/console/console-client.test-support.js";
import { FLEET_TOKENS, type Fleet, read, respond, startFleet } from "./fleet.test-support.js";

// The console on a fleet: alice's run opens a session and waits for an approval on gateway A; her console,
// signed in on gateway B, lists the session, reads its timeline and approves the call, and the run on A
// finishes. Bob's console on B sees none of it. The console reads the shared state through the API's own
// functions, so every gateway shows the same.

let fleet: Fleet;
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
  await fleet?.close();
});

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
});
