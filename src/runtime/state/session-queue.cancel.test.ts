import { getEventListeners } from "node:events";
import { expect, test } from "vitest";
import { SessionQueue } from "./session-queue.js";

function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test("a waiting task whose signal aborts leaves the queue at once, never starts, and keeps the order of the rest", async () => {
  const queue = new SessionQueue({ maxQueuedPerKey: 1 });
  const held = gate();
  const started: string[] = [];
  const a = queue.run("k", async () => {
    started.push("a");
    await held.promise;
    return "a";
  });
  const leaving = new AbortController();
  const b = queue.run(
    "k",
    async () => {
      started.push("b");
      return "b";
    },
    leaving.signal,
  );
  await settle();
  expect(queue.stats()).toEqual({ running: 1, queued: 1 });
  expect(queue.admits("k")).toBe(false);

  const reason = new Error("client left");
  leaving.abort(reason);
  await expect(b).rejects.toBe(reason);
  // Its place is free at once: counted out, and another task fits behind the running one.
  expect(queue.stats()).toEqual({ running: 1, queued: 0 });
  expect(queue.admits("k")).toBe(true);

  const c = queue.run("k", async () => {
    started.push("c");
    return "c";
  });
  await settle();
  // c still waits for a, which is running.
  expect(started).toEqual(["a"]);
  held.open();
  expect(await Promise.all([a, c])).toEqual(["a", "c"]);
  expect(started).toEqual(["a", "c"]);
  await settle();
  expect(queue.activeKeys).toBe(0);
});

test("a task whose signal is already aborted never starts, even on an idle key", async () => {
  const queue = new SessionQueue();
  const gone = new AbortController();
  gone.abort("gone");
  let ran = false;
  await expect(
    queue.run(
      "idle",
      async () => {
        ran = true;
      },
      gone.signal,
    ),
  ).rejects.toBe("gone");
  expect(ran).toBe(false);
  await settle();
  expect(queue.stats()).toEqual({ running: 0, queued: 0 });
  expect(queue.activeKeys).toBe(0);
});

test("once its turn comes the task no longer listens to its signal: an abort then is the task's business", async () => {
  const queue = new SessionQueue();
  const signal = new AbortController();
  const held = gate();
  const running = queue.run(
    "k",
    async () => {
      await held.promise;
      return "done";
    },
    signal.signal,
  );
  await settle();
  expect(getEventListeners(signal.signal, "abort")).toHaveLength(0);
  signal.abort();
  held.open();
  await expect(running).resolves.toBe("done");
});
