import { describe, expect, it } from "vitest";
import { SessionQueue } from "./session-queue.js";

function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe("SessionQueue", () => {
  it("runs tasks of one key in order, one at a time", async () => {
    const queue = new SessionQueue();
    const order: string[] = [];
    const first = gate();
    const a = queue.run("k", async () => {
      order.push("a-start");
      await first.promise;
      order.push("a-end");
      return "a";
    });
    const b = queue.run("k", async () => {
      order.push("b-start");
      return "b";
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(["a-start"]);
    expect(queue.stats()).toEqual({ running: 1, queued: 1 });
    first.open();
    expect(await Promise.all([a, b])).toEqual(["a", "b"]);
    expect(order).toEqual(["a-start", "a-end", "b-start"]);
  });

  it("runs tasks of different keys concurrently", async () => {
    const queue = new SessionQueue();
    const held = gate();
    const started: string[] = [];
    const a = queue.run("a", async () => {
      started.push("a");
      await held.promise;
    });
    const b = queue.run("b", async () => {
      started.push("b");
      await held.promise;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(["a", "b"]);
    expect(queue.stats()).toEqual({ running: 2, queued: 0 });
    held.open();
    await Promise.all([a, b]);
  });

  it("passes a rejection to its caller and still runs the next task", async () => {
    const queue = new SessionQueue();
    const failing = queue.run("k", async () => {
      throw new Error("boom");
    });
    const next = queue.run("k", async () => "next");
    await expect(failing).rejects.toThrow("boom");
    expect(await next).toBe("next");
  });

  it("forgets a key once its tasks settled", async () => {
    const queue = new SessionQueue();
    await queue.run("k", async () => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.activeKeys).toBe(0);
    expect(queue.stats()).toEqual({ running: 0, queued: 0 });
  });
});
