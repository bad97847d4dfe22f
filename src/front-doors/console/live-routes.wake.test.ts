import { describe, expect, it, vi } from "vitest";
import { createApprovalBroker, type PendingApproval } from "../../runtime/approvals/index.js";
import { startTestGateway } from "../gateway/gateway.test-support.js";
import { ALL_TEST_KEYS, authorizationOf, TEST_KEYS } from "../gateway/gateway-keys.test-support.js";
import { consoleClient } from "./console-client.test-support.js";
import { openLive } from "./live-client.test-support.js";

// With re-reads an hour apart, only the in-process wake-up (an append, an approval published or settled by
// this process) can bring a change to a live stream: each one arriving at all is the proof.
vi.mock("./limits.js", async (original) => ({
  ...(await original<typeof import("./limits.js")>()),
  LIVE_SESSION_REREAD_MS: 3_600_000,
  LIVE_APPROVALS_REREAD_MS: 3_600_000,
}));

describe("live streams woken by this process's changes", () => {
  it("an append to the session, and an approval published then settled, reach open streams at once", async () => {
    const broker = createApprovalBroker({ timeoutMs: 600_000 });
    const test = await startTestGateway({ authKeys: ALL_TEST_KEYS, approvals: broker });
    const ran = await test.post(
      "/v1/responses",
      { input: "hello" },
      { ...authorizationOf("alice"), "x-toolsift-session": "woken" },
    );
    expect(ran.status).toBe(200);
    const alice = consoleClient(test.url);
    await alice.login(TEST_KEYS.alice.token);
    const session = await openLive(test.url, alice, "/session?agent=main&key=woken");
    const first = await session.lines?.nextChange();
    const shown = first?.type === "events" ? first.events.length : -1;
    const approvals = await openLive(test.url, alice, "/approvals");
    expect(await approvals.lines?.nextChange()).toEqual({ type: "approvals", approvals: [], broker: true });

    const held = test.post(
      "/v1/responses",
      { input: "exec:ls" },
      { ...authorizationOf("alice"), "x-toolsift-session": "woken" },
    );
    const next = await session.lines?.nextChange();
    expect(next).toMatchObject({ type: "events", from: shown });
    const waiting = await approvals.lines?.nextChange();
    const [pending] = (waiting?.type === "approvals" ? waiting.approvals : []) as PendingApproval[];
    expect(pending?.toolName).toBe("exec");
    expect(await broker.decide(pending?.id ?? "", "allow")).toBe(true);
    expect(await approvals.lines?.nextChange()).toEqual({ type: "approvals", approvals: [], broker: true });
    expect((await held).status).toBe(200);
    session.abort.abort();
    approvals.abort.abort();
    broker.close();
  });
});
