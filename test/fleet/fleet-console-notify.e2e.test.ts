import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunningGateway } from "../../src/front-doors/cli/gateway-command.js";
import { startConfiguredGateway } from "../../src/front-doors/cli/start-configured-gateway.js";
import { consoleClient } from "../../src/front-doors/console/console-client.test-support.js";
import { openLive } from "../../src/front-doors/console/live-client.test-support.js";
import { decide, FLEET_TOKENS, type Fleet, respond, startFleet } from "./fleet.test-support.js";

// Gateway A is a `toolsift gateway` process of the fleet; gateway B runs in this test's process on the same
// config and database (its own pool, LISTEN connection and state store, as another process has), with its
// live streams' re-reads an hour apart. Nothing of A's run happens in B, and B re-reads only when woken: every
// change reaching B's streams is carried by the NOTIFY that A's append or approval statement sent.
vi.mock("../../src/front-doors/console/limits.js", async (original) => ({
  ...(await original<typeof import("../../src/front-doors/console/limits.js")>()),
  LIVE_SESSION_REREAD_MS: 3_600_000,
  LIVE_APPROVALS_REREAD_MS: 3_600_000,
}));

let fleet: Fleet;
let b: RunningGateway;

beforeAll(async () => {
  fleet = await startFleet({ gateways: 1 });
  b = await startConfiguredGateway(
    { configPath: fleet.configPath, bind: "127.0.0.1", port: 0 },
    () => undefined,
    fleet.env("in-process"),
  );
}, 60_000);

afterAll(async () => {
  await b?.stop();
  await fleet?.close();
});

describe("the console on gateway B, woken by gateway A's notifications", () => {
  it("streams a run's events and its approval on A, with re-reads an hour apart", async () => {
    const [a] = fleet.gateways;
    if (!a) throw new Error("gateway A expected");
    const alice = consoleClient(b.url);
    expect((await alice.login(FLEET_TOKENS.ALICE_TOKEN)).status).toBe(200);
    expect((await respond(a, "alice", { input: "first words on A" }, "notified")).status).toBe(200);
    const session = await openLive(b.url, alice, "/session?agent=main&key=notified");
    expect(session.response.status).toBe(200);
    const first = await session.lines?.nextChange();
    const shown = first?.type === "events" ? first.events.length : -1;
    expect(shown).toBeGreaterThan(0);
    const approvals = await openLive(b.url, alice, "/approvals");
    expect(await approvals.lines?.nextChange()).toEqual({ type: "approvals", approvals: [], broker: true });

    // A run on A that waits for approval: its first events and its request reach B's open streams.
    const held = respond(a, "alice", { input: "target=touch_marker" }, "notified");
    const started = await session.lines?.until(
      (line) => line.type === "events" && JSON.stringify(line.events).includes("target=touch_marker"),
    );
    expect(started).toMatchObject({ type: "events", from: shown });
    const waiting = await approvals.lines?.until(
      (line) => line.type === "approvals" && line.approvals.length > 0,
    );
    const [pending] = (waiting?.type === "approvals" ? waiting.approvals : []) as Array<{ id: string }>;

    // Decided on A: B's approvals stream empties, and B's session stream shows the rest of the run.
    const decided = await decide(a.url, FLEET_TOKENS.ALICE_TOKEN, pending?.id ?? "", "allow", "from A");
    expect(decided.status).toBe(200);
    expect(
      await approvals.lines?.until((line) => line.type === "approvals" && line.approvals.length === 0),
    ).toEqual({ type: "approvals", approvals: [], broker: true });
    const seen: unknown[] = [];
    await session.lines?.until((line) => {
      if (line.type === "events") seen.push(...line.events);
      return seen.some((event) => (event as { type?: string }).type === "run-summary");
    });
    expect((await held).status).toBe(200);
    expect(seen).toContainEqual(
      expect.objectContaining({ type: "approval", verdict: "allow", note: "from A" }),
    );
    session.abort.abort();
    approvals.abort.abort();
  });
});
