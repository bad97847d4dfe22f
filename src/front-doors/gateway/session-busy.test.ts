import { describe, expect, it } from "vitest";
import { SessionQueue } from "../../runtime/state/index.js";
import { errorOf, startTestGateway } from "./gateway.test-support.js";
import { DEFAULT_MAX_QUEUED_PER_SESSION } from "./limits.js";
import { SESSION_BUSY_RETRY_AFTER_SECONDS } from "./queue-run.js";

/** A real gateway on 127.0.0.1 over a FakeRunner, with `maxQueuedPerSession` when given. */
async function start(maxQueuedPerSession?: number) {
  const test = await startTestGateway(maxQueuedPerSession === undefined ? {} : { maxQueuedPerSession });
  const post = (text: string, session: string) =>
    test.post("/v1/responses", { input: text }, { "x-toolsift-session": session });
  return { runner: test.runner, gateway: test.gateway, logs: test.logs, post };
}

describe("SessionQueue.admits", () => {
  it("admits a running task and maxQueuedPerKey waiting ones, then refuses until one settles", async () => {
    const queue = new SessionQueue({ maxQueuedPerKey: 2 });
    let open!: () => void;
    const held = new Promise<void>((resolve) => {
      open = resolve;
    });
    const tasks: Promise<unknown>[] = [];
    for (let index = 0; index < 3; index += 1) {
      expect(queue.admits("k")).toBe(true);
      tasks.push(queue.run("k", () => held));
    }
    expect(queue.admits("k")).toBe(false);
    expect(queue.admits("other")).toBe(true);
    open();
    await Promise.all(tasks);
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.admits("k")).toBe(true);
  });

  it("with 0, admits only the running task; unbounded by default", () => {
    const zero = new SessionQueue({ maxQueuedPerKey: 0 });
    void zero.run("k", () => new Promise(() => {}));
    expect(zero.admits("k")).toBe(false);
    const unbounded = new SessionQueue();
    for (let index = 0; index < 100; index += 1) void unbounded.run("k", () => new Promise(() => {}));
    expect(unbounded.admits("k")).toBe(true);
  });
});

describe("per-session queue cap over HTTP", () => {
  it("queues up to maxQueuedPerSession behind a running run; one more is 429 with Retry-After, and runs nothing", async () => {
    const test = await start(2);
    const running = test.post("hold:first", "s1");
    await test.runner.started("hold:first");
    const waiting = [test.post("second", "s1"), test.post("third", "s1")];
    await expect.poll(() => test.gateway.stats().queued).toBe(2);

    const refused = await test.post("fourth", "s1");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(SESSION_BUSY_RETRY_AFTER_SECONDS));
    expect(refused.headers.get("x-toolsift-session")).toBe("s1");
    const error = await errorOf(refused);
    expect(error.code).toBe("session_busy");
    expect(error.message).toMatch(/wait for its earlier runs/u);

    // Other sessions are not affected.
    const other = await test.post("elsewhere", "s2");
    expect(other.status).toBe(200);

    test.runner.release("hold:first");
    const answers = await Promise.all([running, ...waiting]);
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200]);
    const labels = test.runner.requests.map((request) => {
      const item = request.input.at(-1);
      return item?.type === "message" ? item.text : "";
    });
    expect(labels).not.toContain("fourth");
    expect(test.logs.some((line) => line.startsWith("POST /v1/responses 429 "))).toBe(true);
  });

  it("admits again once the queue drains", async () => {
    const test = await start(0);
    const running = test.post("hold:only", "s");
    await test.runner.started("hold:only");
    expect((await test.post("next", "s")).status).toBe(429);
    test.runner.release("hold:only");
    expect((await running).status).toBe(200);
    expect((await test.post("after", "s")).status).toBe(200);
  });

  it(`defaults to ${DEFAULT_MAX_QUEUED_PER_SESSION} waiting runs`, async () => {
    const test = await start();
    const running = test.post("hold:head", "s");
    await test.runner.started("hold:head");
    const waiting = Array.from({ length: DEFAULT_MAX_QUEUED_PER_SESSION }, (_, index) =>
      test.post(`wait ${index}`, "s"),
    );
    await expect.poll(() => test.gateway.stats().queued).toBe(DEFAULT_MAX_QUEUED_PER_SESSION);
    expect((await test.post("one too many", "s")).status).toBe(429);
    test.runner.release("hold:head");
    for (const response of await Promise.all([running, ...waiting])) expect(response.status).toBe(200);
  });
});
