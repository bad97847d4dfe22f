import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusal } from "../../shared/errors/toolsift-error.test-support.js";
import type { PendingApproval } from "../approvals/types.js";
import type { ApprovalSettlement } from "../state/types.js";
import { eventually, openTestGateway } from "./fleet-gateway.test-support.js";
import { createPostgresApprovalLedger, type PostgresApprovalLedger } from "./postgres-approval-ledger.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";
import { startPostgresListener } from "./postgres-listener.js";

/** Long enough that only a notification (or a reconnection's catch-up) can deliver a settlement in a test. */
const NO_RECHECK_MS = 600_000;

let cluster: PostgresCluster;
let url: string;
const opened: Array<{ close(): unknown }> = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
  url = await cluster.createDatabase("ledger");
}, 60_000);

afterAll(async () => {
  for (const thing of opened.reverse()) await thing.close();
  await cluster?.destroy();
});

let serial = 0;
function request(overrides: Partial<PendingApproval> = {}): PendingApproval {
  serial += 1;
  const now = Date.now();
  return {
    id: `appr_${serial.toString(16).padStart(24, "0")}`,
    toolId: "local:me:exec",
    toolName: "exec",
    args: { command: "ls" },
    agentId: "main",
    sessionKey: "s1",
    keyId: "ops",
    createdAt: new Date(now + serial).toISOString(),
    expiresAt: new Date(now + 60_000).toISOString(),
    ...overrides,
  };
}

async function gateway(options: Parameters<typeof openTestGateway>[1] = {}, recheckMs = NO_RECHECK_MS) {
  const gw = await openTestGateway(url, options);
  opened.push(gw);
  const ledger = createPostgresApprovalLedger(gw.db, gw.listener, gw.presence, {
    recheckMs,
    log: (l) => gw.logs.push(l),
  });
  opened.push(ledger);
  return { gw, ledger };
}

function recordSettled(ledger: PostgresApprovalLedger) {
  const seen: Array<{ id: string; settlement: ApprovalSettlement; at: number }> = [];
  ledger.onSettled((id, settlement) => seen.push({ id, settlement, at: Date.now() }));
  return seen;
}

describe("createPostgresApprovalLedger", () => {
  it("lists a request published on one gateway on another, and tells the publisher at once when it is settled there", async () => {
    const a = await gateway();
    const b = await gateway();
    const seenOnA = recordSettled(a.ledger);
    const pending = request();
    await a.ledger.publish(pending);

    expect(await b.ledger.list()).toEqual([pending]);
    expect(await b.ledger.settlement(pending.id)).toBeUndefined();

    const settlement: ApprovalSettlement = {
      verdict: "deny",
      outcome: "denied by the operator",
      reason: "no",
    };
    expect(await b.ledger.settle(pending.id, settlement)).toBe(true);
    // A re-reads on its own only every NO_RECHECK_MS: arriving at all means the notification carried it.
    await eventually("A told of the settlement", () => seenOnA.length > 0, 5_000);
    expect(seenOnA).toEqual([{ id: pending.id, settlement, at: expect.any(Number) }]);
    expect(await a.ledger.settlement(pending.id)).toEqual(settlement);
    expect(await a.ledger.list()).toEqual([]);
  });

  it("carries who decided and their note to the other gateways", async () => {
    const a = await gateway();
    const b = await gateway();
    const seenOnA = recordSettled(a.ledger);
    const pending = request();
    await a.ledger.publish(pending);
    const settlement: ApprovalSettlement = {
      verdict: "allow",
      outcome: "allowed by the operator: fine",
      decidedBy: "alice",
      note: "fine",
      decidedAt: new Date().toISOString(),
    };
    expect(await b.ledger.settle(pending.id, settlement)).toBe(true);
    await eventually("A told of the settlement", () => seenOnA.length > 0, 5_000);
    expect(seenOnA[0]?.settlement).toEqual({
      verdict: "allow",
      outcome: "allowed by the operator: fine",
      decidedBy: "alice",
      note: "fine",
    });
    const stored = await a.gw.db.query<{ decided_at: Date }>(
      "test",
      "SELECT decided_at FROM toolsift_approvals WHERE id = $1",
      [pending.id],
    );
    expect(stored.rows[0]?.decided_at.toISOString()).toBe(settlement.decidedAt);
  });

  it("lets the first settlement win and refuses every later one, across gateways", async () => {
    const a = await gateway();
    const b = await gateway();
    const seenOnB = recordSettled(b.ledger);
    const pending = request();
    await a.ledger.publish(pending);
    const allow: ApprovalSettlement = { verdict: "allow", outcome: "allowed by the operator" };
    const deny: ApprovalSettlement = { verdict: "deny", outcome: "denied by the operator", reason: "no" };
    const results = await Promise.all([
      a.ledger.settle(pending.id, allow),
      b.ledger.settle(pending.id, deny),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results[0] ? allow : deny;
    expect(await b.ledger.settlement(pending.id)).toEqual(winner);
    expect(await a.ledger.settle(pending.id, deny)).toBe(false);
    expect(await a.ledger.settle("appr_unknown", allow)).toBe(false);
    await eventually("B told once", () => seenOnB.length === 1, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seenOnB.map((seen) => seen.settlement)).toEqual([winner]);
  });

  it("lists only unexpired, undecided requests of live gateways, oldest first", async () => {
    const a = await gateway();
    const before = await a.ledger.list();
    const expired = request({ expiresAt: new Date(Date.now() - 1_000).toISOString() });
    const newer = request({ createdAt: new Date(Date.now() + 5_000).toISOString() });
    const older = request({ createdAt: new Date(Date.now() - 5_000).toISOString() });
    const decided = request();
    for (const pending of [expired, newer, older, decided]) await a.ledger.publish(pending);
    await a.ledger.settle(decided.id, { verdict: "allow", outcome: "allowed" });
    const listed = (await a.ledger.list()).filter(
      (pending) => !before.some((seen) => seen.id === pending.id),
    );
    expect(listed).toEqual([older, newer]);

    // A gateway that is gone (its presence row removed) no longer has runs waiting on its requests.
    await a.gw.presence.close();
    const after = await a.ledger.list();
    expect(after.some((pending) => pending.id === older.id || pending.id === newer.id)).toBe(false);
  });

  it("re-reads its unsettled requests every recheckMs, so a decision arrives even with no notification at all", async () => {
    const a = await openTestGateway(url);
    opened.push(a);
    // A listener that never connects: only the periodic re-read can tell A.
    const deaf = startPostgresListener("postgresql://nobody@127.0.0.1:1/none", { retryMinMs: 1_000 });
    opened.push(deaf);
    const ledger = createPostgresApprovalLedger(a.db, deaf, a.presence, { recheckMs: 200 });
    opened.push(ledger);
    const b = await gateway();
    const seenOnA = recordSettled(ledger);
    const pending = request();
    await ledger.publish(pending);
    expect(await b.ledger.settle(pending.id, { verdict: "allow", outcome: "allowed" })).toBe(true);
    await eventually("A told by the re-read", () => seenOnA.length === 1, 5_000);
    expect(seenOnA[0]?.id).toBe(pending.id);
  });

  it("refuses with STORAGE_UNAVAILABLE when the database is unreachable", async () => {
    const { ledger } = await gateway();
    await cluster.stopServer();
    try {
      const error = await refusal(() => ledger.list());
      expect(error.code).toBe("STORAGE_UNAVAILABLE");
      expect((await refusal(() => ledger.publish(request()))).code).toBe("STORAGE_UNAVAILABLE");
    } finally {
      await cluster.startServer();
    }
    await eventually(
      "the ledger answering again",
      async () =>
        await ledger.list().then(
          () => true,
          () => false,
        ),
    );
  });

  it("still tells a settlement notified while its listener was down, once it reconnects", async () => {
    // A's listener retries slowly, so after the restart there is a window where B settles and A hears nothing.
    const a = await gateway({ listener: { retryMinMs: 4_000, retryMaxMs: 4_000 } });
    const b = await gateway();
    const seenOnA = recordSettled(a.ledger);
    const pending = request();
    await a.ledger.publish(pending);

    await cluster.stopServer();
    await cluster.startServer();
    await eventually("A's listener noticing the drop", () => !a.gw.listener.listening);
    let settled = false;
    await eventually(
      "B settling after the restart",
      async () => {
        settled = await b.ledger
          .settle(pending.id, { verdict: "allow", outcome: "allowed by the operator" })
          .catch(() => false);
        return settled || (await b.ledger.settlement(pending.id)) !== undefined;
      },
      10_000,
    );
    expect(a.gw.listener.listening).toBe(false);
    expect(seenOnA).toEqual([]);

    await eventually("A told after reconnecting", () => seenOnA.length === 1, 15_000);
    expect(seenOnA[0]?.id).toBe(pending.id);
    expect(a.gw.listener.listening).toBe(true);
    expect(a.gw.logs.some((line) => line.includes("lost its connection"))).toBe(true);
  }, 40_000);
});
