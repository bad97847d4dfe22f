import { describe, expect, it } from "vitest";
import type { CatalogEntry, ToolResult } from "../catalog/index.js";
import type { Executor } from "./create-executor.js";
import {
  type Deferred,
  deferred,
  entryOf,
  makeExecutor,
  makeTool,
  rejection,
  settle,
  textResult,
} from "./execution.test-support.js";

/** A tool that logs its start and end and finishes when the test releases it. */
function gatedTool(name: string, log: string[], mode: "parallel" | "sequential" = "parallel") {
  const gates: Deferred<void>[] = [];
  const tool = makeTool(name, {
    executionMode: mode,
    execute: async (): Promise<ToolResult> => {
      const gate = deferred();
      gates.push(gate);
      log.push(`start ${name}`);
      await gate.promise;
      log.push(`end ${name}`);
      return textResult(name);
    },
  });
  return { entry: entryOf(tool), gates, tool };
}

function call(
  executor: Executor,
  entry: CatalogEntry,
  surface: "control" | "direct" | "directory" | "code-mode" = "control",
  signal?: AbortSignal,
) {
  const promise = executor.execute(entry, {}, { surface, ...(signal ? { signal } : {}) });
  promise.catch(() => {});
  return promise;
}

describe("executor scheduling", () => {
  it("runs a sequential tool after earlier calls and before later ones, across surfaces", async () => {
    const log: string[] = [];
    const p = gatedTool("p", log);
    const s = gatedTool("s", log, "sequential");
    const { executor } = makeExecutor([p.entry, s.entry]);
    const first = call(executor, p.entry, "control");
    const second = call(executor, s.entry, "direct");
    const third = call(executor, p.entry, "code-mode");
    await settle();
    expect(log).toEqual(["start p"]);
    p.gates[0]!.resolve();
    await first;
    await settle();
    expect(log).toEqual(["start p", "end p", "start s"]);
    s.gates[0]!.resolve();
    await second;
    await settle();
    expect(log).toEqual(["start p", "end p", "start s", "end s", "start p"]);
    p.gates[1]!.resolve();
    await third;
  });

  it("lets parallel tools overlap", async () => {
    const log: string[] = [];
    const a = gatedTool("a", log);
    const b = gatedTool("b", log);
    const { executor } = makeExecutor([a.entry, b.entry]);
    const calls = [call(executor, a.entry), call(executor, b.entry)];
    await settle();
    expect(log).toEqual(["start a", "start b"]);
    a.gates[0]!.resolve();
    b.gates[0]!.resolve();
    await Promise.all(calls);
  });

  it("fails a queued call whose tool was removed or replaced, and leaves one untouched by appends", async () => {
    const log: string[] = [];
    const s = gatedTool("s", log, "sequential");
    const removed = makeTool("removed");
    const replaced = makeTool("replaced");
    const kept = makeTool("kept");
    const [removedEntry, replacedEntry, keptEntry] = [removed, replaced, kept].map(entryOf);
    const { executor, available } = makeExecutor([s.entry, removedEntry!, replacedEntry!, keptEntry!]);
    const blocker = call(executor, s.entry);
    const queuedRemoved = call(executor, removedEntry!);
    const queuedReplaced = call(executor, replacedEntry!);
    const queuedKept = call(executor, keptEntry!);
    await settle();
    available.delete(removedEntry!);
    available.delete(replacedEntry!);
    available.add(entryOf(makeTool("replaced")));
    available.add(entryOf(makeTool("appended")));
    s.gates[0]!.resolve();
    await blocker;
    for (const queued of [queuedRemoved, queuedReplaced]) {
      const error = await rejection(queued);
      expect(error.code).toBe("TOOL_UNAVAILABLE");
      expect(error.message).toBe("Queued tool changed or is no longer available in this run.");
    }
    await expect(queuedKept).resolves.toMatchObject({ details: { input: {} } });
    expect(removed.calls).toHaveLength(0);
    expect(replaced.calls).toHaveLength(0);
    expect(kept.calls).toHaveLength(1);
  });

  it("removes a cancelled queued call without running it", async () => {
    const log: string[] = [];
    const s = gatedTool("s", log, "sequential");
    const other = makeTool("other");
    const otherEntry = entryOf(other);
    const { executor, finished } = makeExecutor([s.entry, otherEntry]);
    const blocker = call(executor, s.entry);
    const controller = new AbortController();
    const queued = call(executor, otherEntry, "control", controller.signal);
    await settle();
    controller.abort();
    const error = await rejection(queued);
    expect(error.code).toBe("CANCELLED");
    expect(error.message).toBe('Tool "native:core:other" was cancelled before it started.');
    s.gates[0]!.resolve();
    await blocker;
    expect(other.calls).toHaveLength(0);
    expect(finished.map((activity) => activity.outcome)).toEqual(["error", "ok"]);
  });

  it("fails a nested call fast from inside a running sequential tool", async () => {
    const inner = makeTool("inner");
    const innerEntry = entryOf(inner);
    let nestedError: (Error & { code?: string }) | undefined;
    const holder: { executor?: Executor } = {};
    const outerEntry = entryOf(
      makeTool("outer", {
        executionMode: "sequential",
        execute: async () => {
          nestedError = await rejection(holder.executor!.execute(innerEntry, {}, { surface: "code-mode" }));
          return textResult("outer done");
        },
      }),
    );
    const { executor } = makeExecutor([innerEntry, outerEntry]);
    holder.executor = executor;
    await expect(executor.execute(outerEntry, {}, { surface: "control" })).resolves.toEqual(
      textResult("outer done"),
    );
    expect(nestedError?.code).toBe("SCHEDULE_DEADLOCK");
    expect(nestedError?.message).toContain("would wait on its own schedule");
    expect(inner.calls).toHaveLength(0);
  });

  it("allows a nested parallel call from inside a parallel tool", async () => {
    const innerEntry = entryOf(makeTool("inner"));
    const holder: { executor?: Executor } = {};
    const outerEntry = entryOf(
      makeTool("outer", {
        execute: async () => holder.executor!.execute(innerEntry, { via: "outer" }, { surface: "code-mode" }),
      }),
    );
    const { executor } = makeExecutor([innerEntry, outerEntry]);
    holder.executor = executor;
    await expect(executor.execute(outerEntry, {}, { surface: "control" })).resolves.toMatchObject({
      details: { input: { via: "outer" } },
    });
  });

  it("close() cancels queued calls, fails later calls, and stops admitted calls before execution", async () => {
    const log: string[] = [];
    const r = gatedTool("r", log);
    const waiting = makeTool("waiting", { executionMode: "sequential" });
    const waitingEntry = entryOf(waiting);
    const approvalGate = deferred<{ approved: true }>();
    const approvalTool = makeTool("approved-later");
    const approvalEntry = entryOf(approvalTool);
    const { executor } = makeExecutor([r.entry, waitingEntry, approvalEntry], {
      hooks: {
        requestApproval: (event) =>
          event.entry === approvalEntry ? approvalGate.promise : { approved: true },
      },
    });
    const inApproval = call(executor, approvalEntry);
    await settle();
    const running = call(executor, r.entry);
    const queued = call(executor, waitingEntry);
    await settle();
    expect(log).toEqual(["start r"]);
    executor.close();
    for (const promise of [queued, executor.execute(waitingEntry, {}, { surface: "direct" })]) {
      const error = await rejection(promise);
      expect(error.code).toBe("CATALOG_CLOSED");
      expect(error.message).toBe("Tool Search catalog is unavailable for this run.");
    }
    approvalGate.resolve({ approved: true });
    expect((await rejection(inApproval)).code).toBe("CATALOG_CLOSED");
    r.gates[0]!.resolve();
    await expect(running).resolves.toEqual(textResult("r"));
    expect(waiting.calls).toHaveLength(0);
    expect(approvalTool.calls).toHaveLength(0);
  });

  it("keeps a timed-out sequential tool exclusive until it has really stopped", async () => {
    const stubborn = deferred<ToolResult>();
    const slow = entryOf(makeTool("slow", { executionMode: "sequential", execute: () => stubborn.promise }));
    const next = makeTool("next");
    const nextEntry = entryOf(next);
    const { executor } = makeExecutor([slow, nextEntry], { timeoutMs: 10 });
    const timedOut = call(executor, slow);
    const after = call(executor, nextEntry);
    expect((await rejection(timedOut)).code).toBe("TIMEOUT");
    await settle();
    expect(next.calls).toHaveLength(0);
    stubborn.resolve(textResult("finally"));
    await after;
    expect(next.calls).toHaveLength(1);
  });
});
