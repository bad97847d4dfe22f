import { describe, expect, it } from "vitest";
import { deferred, rejection, settle } from "./execution.test-support.js";
import { CATALOG_UNAVAILABLE_MESSAGE, createToolScheduler, type ScheduleMode } from "./tool-scheduler.js";

/** Schedules a task that records its start and waits for the test to finish it. */
function track(scheduler: ReturnType<typeof createToolScheduler>, log: string[]) {
  return (name: string, mode: ScheduleMode, signal?: AbortSignal) => {
    const gate = deferred<string>();
    const result = scheduler.run(
      async () => {
        log.push(`start ${name}`);
        const value = await gate.promise;
        log.push(`end ${name}`);
        return value;
      },
      { mode, label: name, ...(signal ? { signal } : {}) },
    );
    result.catch(() => {});
    return { gate, result };
  };
}

describe("createToolScheduler", () => {
  it("lets parallel calls overlap", async () => {
    const scheduler = createToolScheduler();
    const log: string[] = [];
    const call = track(scheduler, log);
    const a = call("a", "parallel");
    const b = call("b", "parallel");
    await settle();
    expect(log).toEqual(["start a", "start b"]);
    expect(scheduler.running).toBe(2);
    a.gate.resolve("A");
    b.gate.resolve("B");
    await expect(a.result).resolves.toBe("A");
    await expect(b.result).resolves.toBe("B");
  });

  it("runs a sequential call after every earlier call and before every later one (FIFO)", async () => {
    const scheduler = createToolScheduler();
    const log: string[] = [];
    const call = track(scheduler, log);
    const p1 = call("p1", "parallel");
    const p2 = call("p2", "parallel");
    const s = call("s", "sequential");
    const p3 = call("p3", "parallel");
    await settle();
    expect(log).toEqual(["start p1", "start p2"]);
    expect(scheduler.queued).toBe(2);

    p1.gate.resolve("");
    await settle();
    expect(log).toEqual(["start p1", "start p2", "end p1"]);

    p2.gate.resolve("");
    await settle();
    expect(log).toEqual(["start p1", "start p2", "end p1", "end p2", "start s"]);

    s.gate.resolve("");
    await settle();
    expect(log.slice(-2)).toEqual(["end s", "start p3"]);
    p3.gate.resolve("");
    await p3.result;
  });

  it("runs two sequential calls one at a time, in arrival order", async () => {
    const scheduler = createToolScheduler();
    const log: string[] = [];
    const call = track(scheduler, log);
    const s1 = call("s1", "sequential");
    const s2 = call("s2", "sequential");
    await settle();
    expect(log).toEqual(["start s1"]);
    s1.gate.resolve("");
    await settle();
    expect(log).toEqual(["start s1", "end s1", "start s2"]);
    s2.gate.resolve("");
    await s2.result;
  });

  it("holds a slot until held work settles, even after the task returned", async () => {
    const scheduler = createToolScheduler();
    const stillRunning = deferred();
    const first = scheduler.run(
      async (slot) => {
        slot.hold(stillRunning.promise);
        return "returned early";
      },
      { mode: "sequential", label: "s1" },
    );
    let secondStarted = false;
    const second = scheduler.run(
      async () => {
        secondStarted = true;
      },
      { mode: "parallel", label: "p" },
    );
    await expect(first).resolves.toBe("returned early");
    await settle();
    expect(secondStarted).toBe(false);
    stillRunning.resolve();
    await second;
    expect(secondStarted).toBe(true);
  });

  it("removes a cancelled queued call without running it and lets the queue move on", async () => {
    const scheduler = createToolScheduler();
    const log: string[] = [];
    const call = track(scheduler, log);
    const p1 = call("p1", "parallel");
    const controller = new AbortController();
    const s = call("s", "sequential", controller.signal);
    const p2 = call("p2", "parallel");
    await settle();
    controller.abort();
    const error = await rejection(s.result);
    expect(error.code).toBe("CANCELLED");
    expect(error.message).toBe('Tool "s" was cancelled before it started.');
    await settle();
    expect(log).toEqual(["start p1", "start p2"]);
    p1.gate.resolve("");
    p2.gate.resolve("");
    await p2.result;
    expect(log).not.toContain("start s");
  });

  it("never releases a running sequential call early when its signal aborts", async () => {
    const scheduler = createToolScheduler();
    const log: string[] = [];
    const call = track(scheduler, log);
    const controller = new AbortController();
    const s = call("s", "sequential", controller.signal);
    const p = call("p", "parallel");
    await settle();
    controller.abort();
    await settle();
    expect(log).toEqual(["start s"]);
    s.gate.resolve("done");
    await expect(s.result).resolves.toBe("done");
    await settle();
    expect(log).toContain("start p");
    p.gate.resolve("");
    await p.result;
  });

  it("rejects a call whose signal is already aborted without running it", async () => {
    const scheduler = createToolScheduler();
    let ran = false;
    const error = await rejection(
      scheduler.run(
        async () => {
          ran = true;
        },
        { mode: "parallel", label: "t", signal: AbortSignal.abort() },
      ),
    );
    expect(error.code).toBe("CANCELLED");
    expect(ran).toBe(false);
  });

  it("rejects an admitted call when the admission check throws, and keeps pumping", async () => {
    const scheduler = createToolScheduler();
    const log: string[] = [];
    const call = track(scheduler, log);
    const s = call("s", "sequential");
    let ranQueued = false;
    const queued = scheduler.run(
      async () => {
        ranQueued = true;
      },
      {
        mode: "parallel",
        label: "q",
        onAdmitAfterWait: () => {
          throw new Error("gone");
        },
      },
    );
    const after = call("after", "parallel");
    s.gate.resolve("");
    await expect(queued).rejects.toThrow("gone");
    expect(ranQueued).toBe(false);
    await settle();
    expect(log).toContain("start after");
    after.gate.resolve("");
    await after.result;
  });

  it("does not run the admission check for a call that started at once", async () => {
    const scheduler = createToolScheduler();
    let checked = false;
    await scheduler.run(async () => "ok", {
      mode: "sequential",
      label: "s",
      onAdmitAfterWait: () => {
        checked = true;
      },
    });
    expect(checked).toBe(false);
  });

  it("fails a nested call that cannot start at once instead of deadlocking", async () => {
    const scheduler = createToolScheduler();
    const inner = await scheduler.run(
      async () => rejection(scheduler.run(async () => "never", { mode: "parallel", label: "inner" })),
      { mode: "sequential", label: "outer" },
    );
    expect(inner.code).toBe("SCHEDULE_DEADLOCK");
    expect(inner.message).toContain('Tool "inner"');
    expect(inner.message).toContain("would wait on its own schedule");
  });

  it("detects nesting again after every slot of the process was released (tracking is switched off between calls)", async () => {
    for (let round = 0; round < 3; round += 1) {
      const scheduler = createToolScheduler();
      const inner = await scheduler.run(
        async () => {
          // A continuation after a real macrotask still carries the outer call's slot.
          await new Promise((resolve) => setTimeout(resolve, 1));
          return rejection(scheduler.run(async () => "never", { mode: "parallel", label: "inner" }));
        },
        { mode: "sequential", label: "outer" },
      );
      expect(inner.code).toBe("SCHEDULE_DEADLOCK");
      // Nothing holds a slot now: a fresh call is not nested and starts at once.
      await expect(scheduler.run(async () => round, { mode: "sequential", label: "after" })).resolves.toBe(
        round,
      );
    }
  });

  it("fails a nested sequential call inside a parallel one, and a nested call behind a queued sequential one", async () => {
    const scheduler = createToolScheduler();
    const release = deferred();
    const results = scheduler.run(
      async () => {
        const sequential = await rejection(scheduler.run(async () => 1, { mode: "sequential", label: "n1" }));
        await release.promise;
        const behindQueue = await rejection(scheduler.run(async () => 2, { mode: "parallel", label: "n2" }));
        return [sequential.code, behindQueue.code];
      },
      { mode: "parallel", label: "outer" },
    );
    const waiting = scheduler.run(async () => "s", { mode: "sequential", label: "s" });
    await settle();
    release.resolve();
    await expect(results).resolves.toEqual(["SCHEDULE_DEADLOCK", "SCHEDULE_DEADLOCK"]);
    await expect(waiting).resolves.toBe("s");
  });

  it("admits a nested parallel call that can start at once", async () => {
    const scheduler = createToolScheduler();
    const value = await scheduler.run(
      async () => scheduler.run(async () => "inner ran", { mode: "parallel", label: "inner" }),
      { mode: "parallel", label: "outer" },
    );
    expect(value).toBe("inner ran");
  });

  it("lets a call inside another schedule's call wait normally", async () => {
    const mine = createToolScheduler();
    const other = createToolScheduler();
    const blocker = deferred();
    const running = mine.run(() => blocker.promise, { mode: "sequential", label: "blocker" });
    const fromOther = other.run(() => mine.run(async () => "waited", { mode: "parallel", label: "x" }), {
      mode: "parallel",
      label: "outer",
    });
    await settle();
    blocker.resolve();
    await running;
    await expect(fromOther).resolves.toBe("waited");
  });

  it("does not treat a call made after the outer call finished as nested", async () => {
    const scheduler = createToolScheduler();
    let later: (() => Promise<string>) | undefined;
    await scheduler.run(
      async () => {
        later = () => scheduler.run(async () => "fine", { mode: "sequential", label: "later" });
      },
      { mode: "parallel", label: "outer" },
    );
    await settle();
    const blocker = deferred();
    const running = scheduler.run(() => blocker.promise, { mode: "parallel", label: "blocker" });
    const pending = later!();
    blocker.resolve();
    await running;
    await expect(pending).resolves.toBe("fine");
  });

  it("close() rejects queued calls and later calls, and lets running calls finish", async () => {
    const scheduler = createToolScheduler();
    const log: string[] = [];
    const call = track(scheduler, log);
    const running = call("running", "sequential");
    const queued = call("queued", "parallel");
    await settle();
    scheduler.close();
    const queuedError = await rejection(queued.result);
    expect(queuedError.code).toBe("CATALOG_CLOSED");
    expect(queuedError.message).toBe(CATALOG_UNAVAILABLE_MESSAGE);
    const later = await rejection(scheduler.run(async () => 1, { mode: "parallel", label: "later" }));
    expect(later.code).toBe("CATALOG_CLOSED");
    expect(later.message).toBe("Tool Search catalog is unavailable for this run.");
    running.gate.resolve("finished");
    await expect(running.result).resolves.toBe("finished");
    expect(log).not.toContain("start queued");
    expect(scheduler.closed).toBe(true);
  });

  it("settles with a task's rejection and frees the slot", async () => {
    const scheduler = createToolScheduler();
    await expect(
      scheduler.run(
        async () => {
          throw new Error("task failed");
        },
        { mode: "sequential", label: "s" },
      ),
    ).rejects.toThrow("task failed");
    await settle();
    expect(scheduler.running).toBe(0);
    await expect(scheduler.run(async () => "next", { mode: "sequential", label: "n" })).resolves.toBe("next");
  });
});
