import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient } from "../../src/front-doors/console/console-client.test-support.js";
import { openLive } from "../../src/front-doors/console/live-client.test-support.js";
import { decide, FLEET_TOKENS, type Fleet, read, respond, startFleet } from "./fleet.test-support.js";

// Pushed updates on a fleet: alice's console on gateway B follows a session and the approvals list while her
// run goes on gateway A. Nothing of the run happens in B's process: B's streams are woken by A's NOTIFY and
// read the shared PostgreSQL state (fleet-console-notify.e2e.test.ts proves the wake-up alone delivers). The
// approval's decision (made on A) is logged in the session and read on B with who decided; the sessions
// page's search by content on B finds the session A wrote.

let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet({ gateways: 2 });
}, 60_000);

afterAll(async () => {
  await fleet?.close();
});

describe("the console's live streams on another gateway of the fleet", () => {
  it("B streams the events and the approval of a run on A, and finds the session by its text", async () => {
    const [a, b] = fleet.gateways;
    if (!a || !b) throw new Error("two gateways expected");
    expect((await respond(a, "alice", { input: "hello from A about Lisbon" }, "alice-live")).status).toBe(
      200,
    );

    const alice = consoleClient(b.url);
    expect((await alice.login(FLEET_TOKENS.ALICE_TOKEN)).status).toBe(200);
    const session = await openLive(b.url, alice, "/session?agent=main&key=alice-live");
    expect(session.response.status).toBe(200);
    const first = await session.lines?.nextChange();
    if (first?.type !== "events") throw new Error(`expected events, got ${JSON.stringify(first)}`);
    expect(JSON.stringify(first.events)).toContain("hello from A about Lisbon");
    const approvals = await openLive(b.url, alice, "/approvals");
    expect(await approvals.lines?.nextChange()).toEqual({ type: "approvals", approvals: [], broker: true });

    const held = respond(a, "alice", { input: "target=touch_marker" }, "alice-live");
    const waiting = await approvals.lines?.until(
      (line) => line.type === "approvals" && line.approvals.length > 0,
    );
    const [pending] = (waiting?.type === "approvals" ? waiting.approvals : []) as Array<{
      id: string;
      sessionKey: string;
    }>;
    expect(pending?.sessionKey).toBe("alice-live");
    // The new run's first events reached B while the call waits.
    const started = await session.lines?.until(
      (line) => line.type === "events" && JSON.stringify(line.events).includes("target=touch_marker"),
    );
    expect(started?.type).toBe("events");

    // Decided on A, through the API: B's approvals stream drops it; B's session stream shows who decided.
    const decided = await decide(a.url, FLEET_TOKENS.ALICE_TOKEN, pending?.id ?? "", "allow", "fine from A");
    expect(decided.status).toBe(200);
    expect(
      await approvals.lines?.until((line) => line.type === "approvals" && line.approvals.length === 0),
    ).toEqual({ type: "approvals", approvals: [], broker: true });
    const seen: unknown[] = [];
    await session.lines?.until((line) => {
      if (line.type === "events") seen.push(...line.events);
      // The first run's summary came in the first line: a summary seen here is the new run's.
      return seen.some((event) => (event as { type?: string }).type === "run-summary");
    });
    expect((await held).status).toBe(200);
    expect(seen).toContainEqual(
      expect.objectContaining({
        type: "approval",
        verdict: "allow",
        decidedBy: "alice",
        note: "fine from A",
      }),
    );
    session.abort.abort();
    approvals.abort.abort();

    // The search by content runs in the shared store: B finds what A wrote.
    const found = await alice.send("GET", "/sessions?contains=lisbon");
    expect((found.body.data as Array<{ sessionKey: string }>).map((row) => row.sessionKey)).toEqual([
      "alice-live",
    ]);
    expect(((await alice.send("GET", "/sessions?status=completed")).body.data as unknown[]).length).toBe(1);
    expect((await read(b, "alice", "/v1/approvals")).body.approvals).toEqual([]);
  });
});
