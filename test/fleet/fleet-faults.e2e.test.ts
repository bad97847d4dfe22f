import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Fleet, read, respond, startFleet } from "./fleet.test-support.js";

// The database stopped under load and started again: every gateway says so on /healthz, refuses runs with
// 503 storage_unavailable before any tool runs, and recovers without a restart.

let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet({ gateways: 2 });
}, 60_000);

afterAll(async () => {
  await fleet?.close();
});

// A failed test shows what each gateway logged.
afterEach(({ task }) => {
  if (task.result?.state === "fail")
    for (const gateway of fleet?.gateways ?? []) console.error(gateway.stderr().slice(-4000));
});

async function healthz(url: string): Promise<{ status: number; body: { ok?: boolean; reason?: string } }> {
  const response = await fetch(`${url}/healthz`);
  return { status: response.status, body: (await response.json()) as { ok?: boolean; reason?: string } };
}

describe("the state database goes away and comes back", () => {
  it("answers 503 on every gateway while it is down, runs nothing, and recovers without a restart", async () => {
    const [a, b] = fleet.gateways;
    if (!a || !b) throw new Error("two gateways expected");
    expect((await respond(a, "alice", { input: "hello" }, "steady")).status).toBe(200);
    // Load while the database stops: a stream of runs across both gateways.
    let stop = false;
    const statuses: number[] = [];
    const load = (async () => {
      for (let i = 0; !stop; i += 1) {
        const gateway = i % 2 === 0 ? a : b;
        const result = await respond(gateway, "alice", { input: `load ${i}` }, `load-${i % 4}`).catch(() => ({
          status: 0,
          body: {},
        }));
        statuses.push(result.status);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await fleet.cluster.stopServer();
    try {
      for (const gateway of [a, b]) {
        await expect.poll(async () => (await healthz(gateway.url)).status, { timeout: 10_000 }).toBe(503);
        const admin = await read(gateway, "ops", "/healthz");
        expect(String(admin.body.reason)).toMatch(/state database .* unavailable|PostgreSQL/iu);
        expect(String(admin.body.reason)).not.toContain("mock-key");
      }
      const markerBefore = fleet.markerRuns();
      const refused = await respond(a, "alice", { input: "target=touch_marker" }, "down");
      expect(refused.status).toBe(503);
      expect(refused.body.error?.code).toBe("storage_unavailable");
      const other = await respond(b, "alice", { input: "target=slow_step" }, "down-2");
      expect(other.status).toBe(503);
      expect(fleet.markerRuns()).toBe(markerBefore);
      expect(fleet.steps()).toHaveLength(0);
    } finally {
      await fleet.cluster.startServer();
    }
    for (const gateway of [a, b])
      await expect.poll(async () => (await healthz(gateway.url)).status, { timeout: 15_000 }).toBe(200);
    stop = true;
    await load;
    expect(statuses).toContain(200);
    expect(statuses.some((status) => status === 503)).toBe(true);
    // Nothing but 200 and 503 was answered under load: no 500, no hang.
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    const again = await respond(b, "alice", { input: "after the outage" }, "steady");
    expect(again.status).toBe(200);
    const session = await read(a, "alice", "/v1/sessions/steady");
    expect(JSON.stringify(session.body)).toContain("after the outage");
  });
});
