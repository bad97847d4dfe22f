import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusal } from "../../shared/errors/toolsift-error.test-support.js";
import { SessionQueueFullError } from "../state/types.js";
import { eventually, openTestGateway, type TestGateway } from "./fleet-gateway.test-support.js";
import { type PostgresCluster, startPostgresCluster } from "./postgres-cluster.test-support.js";
import { createPostgresRunQueue, type PostgresRunQueue } from "./postgres-run-queue.js";

const HOLDER = fileURLToPath(new URL("./run-queue-holder.test-support.ts", import.meta.url));

let cluster: PostgresCluster;
let url: string;
const opened: Array<{ close(): unknown }> = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
  url = await cluster.createDatabase("runq");
}, 60_000);

afterAll(async () => {
  for (const thing of opened.reverse()) await thing.close();
  await cluster?.destroy();
});

async function queue(maxQueuedPerSession = 8): Promise<PostgresRunQueue & { gw: TestGateway }> {
  const gw = await openTestGateway(url);
  opened.push(gw);
  const created = createPostgresRunQueue(gw.db, gw.listener, gw.presence, {
    maxQueuedPerSession,
    log: (line) => gw.logs.push(line),
  });
  opened.push(created);
  return Object.assign(created, { gw });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A task that runs until `open()` is called. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open: () => open(), opened };
}

async function ticketCount(q: { gw: TestGateway }, sessionId: string): Promise<number> {
  const rows = await q.gw.db.query<{ n: number }>(
    "counting tickets",
    "SELECT count(*)::int AS n FROM toolsift_session_runs WHERE session_id = $1",
    [sessionId],
  );
  return rows.rows[0]?.n ?? 0;
}

describe("createPostgresRunQueue", () => {
  it("serialises one session across two gateways and runs different sessions concurrently", async () => {
    const a = await queue();
    const b = await queue();
    const spans: Array<{ start: number; end: number }> = [];
    const task = async () => {
      const start = performance.now();
      await sleep(40);
      spans.push({ start, end: performance.now() });
    };
    await Promise.all([1, 2, 3].flatMap(() => [a.run("shared", task), b.run("shared", task)]));
    spans.sort((x, y) => x.start - y.start);
    expect(spans).toHaveLength(6);
    for (let i = 1; i < spans.length; i += 1) {
      expect(spans[i]?.start).toBeGreaterThanOrEqual(spans[i - 1]?.end ?? Number.POSITIVE_INFINITY);
    }

    // Each run waits for the other to start: only concurrent runs finish.
    const both = { count: 0 };
    const meet = async () => {
      both.count += 1;
      await eventually("both sessions running at once", () => both.count === 2, 5_000);
      return "met";
    };
    expect(await Promise.all([a.run("left", meet), b.run("right", meet)])).toEqual(["met", "met"]);
    expect(a.stats()).toEqual({ running: 0, queued: 0 });
    await eventually("every ticket released", async () => (await ticketCount(a, "shared")) === 0);
  });

  it("keeps this process's runs of a session in the order they were asked for", async () => {
    const a = await queue();
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map((n) =>
        a.run("ordered", async () => {
          order.push(n);
        }),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it("counts maxQueuedPerSession across the fleet: one runs, max wait, the next is refused", async () => {
    const a = await queue(1);
    const b = await queue(1);
    const holding = gate();
    const started = gate();
    const first = a.run("full", async () => {
      started.open();
      await holding.opened;
      return "first";
    });
    await started.opened;
    const second = b.run("full", async () => "second");
    await eventually("the second run queued", async () => (await ticketCount(a, "full")) === 2);
    expect(b.stats()).toEqual({ running: 0, queued: 1 });
    expect(a.stats()).toEqual({ running: 1, queued: 0 });

    let ran = false;
    const third = a.run("full", async () => {
      ran = true;
    });
    await expect(third).rejects.toBeInstanceOf(SessionQueueFullError);
    await expect(b.run("full", async () => undefined)).rejects.toBeInstanceOf(SessionQueueFullError);
    expect(ran).toBe(false);

    holding.open();
    expect(await Promise.all([first, second])).toEqual(["first", "second"]);
    expect(await a.run("full", async () => "again")).toBe("again");
  });

  it("removes a run whose signal aborts while it waits: it rejects with the reason and never starts", async () => {
    const a = await queue();
    const b = await queue();
    const holding = gate();
    const started = gate();
    const first = a.run("abort", async () => {
      started.open();
      await holding.opened;
    });
    await started.opened;
    const controller = new AbortController();
    let ran = false;
    const waiting = b.run(
      "abort",
      async () => {
        ran = true;
      },
      controller.signal,
    );
    await eventually("the run queued", async () => (await ticketCount(a, "abort")) === 2);
    const reason = new Error("client went away");
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await eventually("its ticket removed", async () => (await ticketCount(a, "abort")) === 1);
    expect(b.stats()).toEqual({ running: 0, queued: 0 });

    const later = b.run("abort", async () => "later");
    holding.open();
    await first;
    expect(await later).toBe("later");
    expect(ran).toBe(false);

    const aborted = new AbortController();
    aborted.abort(reason);
    await expect(a.run("abort", async () => undefined, aborted.signal)).rejects.toBe(reason);
  });

  it("aborts a run waiting behind an earlier run of its own process", async () => {
    const a = await queue();
    const holding = gate();
    const started = gate();
    const first = a.run("local-abort", async () => {
      started.open();
      await holding.opened;
    });
    await started.opened;
    const controller = new AbortController();
    let ran = false;
    const behind = a.run(
      "local-abort",
      async () => {
        ran = true;
      },
      controller.signal,
    );
    const last = a.run("local-abort", async () => "last");
    await eventually("both queued", async () => (await ticketCount(a, "local-abort")) === 3);
    const reason = new Error("gave up");
    controller.abort(reason);
    await expect(behind).rejects.toBe(reason);
    await eventually("its ticket removed", async () => (await ticketCount(a, "local-abort")) === 2);
    holding.open();
    await first;
    expect(await last).toBe("last");
    expect(ran).toBe(false);
  });

  it("on close, rejects its waiting runs and frees its sessions for other gateways at once", async () => {
    const a = await queue();
    const b = await queue();
    const holding = gate();
    const started = gate();
    const held = a.run("closing", async () => {
      started.open();
      await holding.opened;
      return "held";
    });
    await started.opened;
    const waitingOnA = a.run("closing", async () => "never");
    const waitingOnB = b.run("closing", async () => "b ran");
    await eventually("both queued", async () => (await ticketCount(b, "closing")) === 3);
    const refusedOnA = refusal(() => waitingOnA);
    await a.close();
    expect((await refusedOnA).code).toBe("STORAGE_UNAVAILABLE");
    // A's running task goes on, but its claim is gone: B's run starts without waiting for it.
    expect(await waitingOnB).toBe("b ran");
    expect((await refusal(() => a.run("closing", async () => undefined))).code).toBe("STORAGE_UNAVAILABLE");
    holding.open();
    expect(await held).toBe("held");
  });

  it("lets another gateway take a session whose holder process was killed", async () => {
    const b = await queue();
    const child = spawn(process.execPath, ["--import", "tsx", HOLDER, url, "crashed"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk) => {
          if (String(chunk).includes("claimed")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`holder exited (${code}): ${stderr}`)));
      });
      let startedAt = 0;
      const waiting = b.run("crashed", async () => {
        startedAt = Date.now();
        return "taken over";
      });
      await sleep(1_000);
      expect(startedAt).toBe(0);
      const killedAt = Date.now();
      child.kill("SIGKILL");
      expect(await waiting).toBe("taken over");
      // The claim lapses with the holder's presence (PRESENCE_TTL_MS) and is noticed by the next poll.
      expect(startedAt - killedAt).toBeLessThan(15_000);
    } finally {
      child.kill("SIGKILL");
    }
  }, 40_000);

  it("refuses with STORAGE_UNAVAILABLE before the task runs while the database is down, and works again after", async () => {
    const a = await queue();
    expect(await a.run("outage", async () => "before")).toBe("before");
    await cluster.stopServer();
    let ran = false;
    try {
      const error = await refusal(() =>
        a.run("outage", async () => {
          ran = true;
        }),
      );
      expect(error.code).toBe("STORAGE_UNAVAILABLE");
      expect(ran).toBe(false);
      expect(a.stats()).toEqual({ running: 0, queued: 0 });
    } finally {
      await cluster.startServer();
    }
    await eventually(
      "the queue working again",
      async () => (await a.run("outage", async () => "after").catch(() => undefined)) === "after",
    );
    expect(await a.run("outage", async () => "after")).toBe("after");
    // A run settles before its ticket's release (a background statement) completes.
    await eventually("every ticket released", async () => (await ticketCount(a, "outage")) === 0);
  }, 30_000);
});
