import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CatalogEntry, toCatalogEntry } from "../../core/catalog/index.js";
import { createApprovalBroker } from "../approvals/index.js";
import type { SessionEvent } from "../sessions/index.js";
import type { StateStore } from "../state/index.js";
import { eventually, openTestGateway } from "./fleet-gateway.test-support.js";
import { openPostgresState } from "./open-postgres-state.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";
import { NOTIFY_CHANNELS } from "./postgres-listener.js";
import { createPostgresSessionStore } from "./postgres-session-store.js";

// Two processes' state stores on one database: what one writes wakes the other's hooks (`onAppended`,
// the approval broker's `onChange`) through the NOTIFY its statement sends, with no re-read anywhere.

let cluster: PostgresCluster;
let a: StateStore;
let b: StateStore;

const event = (sessionKey: string): SessionEvent => ({
  type: "session",
  version: 1,
  agentId: "main",
  sessionKey,
  at: new Date().toISOString(),
});

/** What `store`'s onAppended listeners were told, in order, as `agent/key`. */
function heard(store: StateStore): string[] {
  const told: string[] = [];
  store.sessions.onAppended?.((agentId, sessionKey) => told.push(`${agentId}/${sessionKey}`));
  return told;
}

/**
 * Appends to `main/<key>` through `from` until `to` hears of it: the LISTEN connection of a store opens in
 * the background, and this waits for it. Notifications reach a listener in commit order, so once `to` heard
 * this append it has heard every one committed before it.
 */
async function sync(from: StateStore, to: string[], key: string): Promise<void> {
  await eventually(`a notification of ${key}`, async () => {
    await from.sessions.append("main", key, event(key));
    await new Promise((resolve) => setTimeout(resolve, 50));
    return to.includes(`main/${key}`);
  });
}

function execEntry(): CatalogEntry {
  const made = toCatalogEntry({
    name: "exec",
    description: "run a command",
    parameters: { type: "object" },
    execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
  });
  if (made === undefined) throw new Error("no entry for exec");
  return made;
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const url = await cluster.createDatabase("notify");
  a = await openPostgresState(url);
  b = await openPostgresState(url);
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await cluster?.destroy();
});

describe("PostgreSQL state: other processes' changes wake this one's hooks", () => {
  it("an append through A tells B's onAppended; a batch is one notification; A is told of its own once", async () => {
    const onA = heard(a);
    const onB = heard(b);
    await sync(a, onB, "warm-a");
    await sync(b, onA, "warm-b");

    // Five appends in one turn of the event loop go out as one statement: one notification.
    await Promise.all([1, 2, 3, 4, 5].map(() => a.sessions.append("main", "burst", event("burst"))));
    await sync(a, onB, "after-burst");
    expect(onB.filter((id) => id === "main/burst")).toEqual(["main/burst"]);
    expect(await b.sessions.read("main", "burst")).toHaveLength(5);

    // A tells its own listeners per append, at once; its own notification coming back is not told again.
    // B's append below commits after A's: once A heard it, A's own notification has arrived too.
    await sync(b, onA, "after-own");
    expect(onA.filter((id) => id === "main/burst")).toHaveLength(5);
    expect(onA.filter((id) => id === "main/after-burst").length).toBeGreaterThan(0);
    expect(onA.filter((id) => id === "main/after-burst").length).toBe(
      onB.filter((id) => id === "main/after-burst").length,
    );
  });

  it("an approval requested through A, then decided through A, tells B's broker each time", async () => {
    const onB = heard(b);
    await sync(a, onB, "warm-approvals");
    const brokerA = createApprovalBroker({ ledger: a.approvals, timeoutMs: 60_000 });
    const brokerB = createApprovalBroker({ ledger: b.approvals, timeoutMs: 60_000 });
    let changesOnB = 0;
    brokerB.onChange(() => {
      changesOnB += 1;
    });
    try {
      const decision = brokerA.requestApproval({
        entry: execEntry(),
        args: { command: "ls" },
        surface: "direct",
        agentId: "main",
        sessionKey: "approvals",
      });
      await eventually("B told of the request", () => changesOnB > 0);
      const told = changesOnB;
      const [pending] = await brokerB.pending();
      expect(pending?.toolName).toBe("exec");
      expect(await brokerA.decide(pending?.id ?? "", "allow", "fine", "ops")).toBe(true);
      await eventually("B told of the decision", () => changesOnB > told);
      expect(await decision).toEqual({ approved: true });
      expect(await brokerB.pending()).toEqual([]);
    } finally {
      brokerA.close();
      brokerB.close();
    }
  });
});

describe("PostgreSQL state: appends notify only while some process follows sessions live", () => {
  it("no listener anywhere: no NOTIFY; one on B: A's appends notify; B's gone: they stop", async () => {
    const url = await cluster.createDatabase("watch");
    const gwA = await openTestGateway(url);
    const gwB = await openTestGateway(url);
    const storeA = createPostgresSessionStore(gwA.db, { listener: gwA.listener, watchCheckMs: 100 });
    const storeB = createPostgresSessionStore(gwB.db, { listener: gwB.listener, watchCheckMs: 100 });
    // A raw LISTEN connection counts what the appends send; its own NOTIFY after them marks "all arrived".
    const spy = new pg.Client({ connectionString: url });
    await spy.connect();
    const payloads: string[] = [];
    spy.on("notification", (message) => payloads.push(message.payload ?? ""));
    await spy.query(`LISTEN ${NOTIFY_CHANNELS.sessionAppended}`);
    const sent = async (): Promise<string[]> => {
      const marker = `marker ${payloads.length}-${Date.now()}`;
      await spy.query("SELECT pg_notify($1, $2)", [NOTIFY_CHANNELS.sessionAppended, marker]);
      await eventually("the marker", () => payloads.includes(marker));
      const got = payloads.filter((payload) => !payload.startsWith("marker "));
      payloads.length = 0;
      return got;
    };
    const appendSpaced = async (key: string) => {
      for (let round = 0; round < 3; round += 1) {
        await storeA.append("main", key, event(key));
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    };
    try {
      // The first look answers "nobody follows": from then on A's appends send nothing.
      await appendSpaced("unwatched-warm");
      await sent();
      await appendSpaced("unwatched");
      expect(await sent()).toEqual([]);

      // B follows sessions (a live view opened there): A's appends reach B's listener, one NOTIFY each.
      const onB: string[] = [];
      const stop = storeB.onAppended?.((agentId, sessionKey) => onB.push(`${agentId}/${sessionKey}`));
      await eventually("B told of A's append", async () => {
        await storeA.append("main", "watched", event("watched"));
        return onB.includes("main/watched");
      });
      expect((await sent()).some((payload) => payload.endsWith(" main/watched"))).toBe(true);

      // B stops following: once A looks again, its appends send nothing.
      stop?.();
      await appendSpaced("unwatched-again-warm");
      await sent();
      await appendSpaced("unwatched-again");
      expect(await sent()).toEqual([]);
    } finally {
      await spy.end();
      await gwA.close();
      await gwB.close();
    }
  });
});
