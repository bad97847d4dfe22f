import { describe, expect, it } from "vitest";
import { BlockedError } from "./blocked-error.js";
import { createExecutor } from "./create-executor.js";
import {
  deferred,
  entryOf,
  makeExecutor,
  makeTool,
  rejection,
  settle,
  textResult,
} from "./execution.test-support.js";
import type { ExecutionHooks, ToolCallEvent } from "./types.js";

const surface = { surface: "control" as const };

describe("executor pipeline order", () => {
  it("runs policy, hooks, approval, validation, execution and activity in that order", async () => {
    const log: string[] = [];
    const tool = makeTool("echo", {
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      outputSchema: { type: "object", properties: { echoed: { type: "string" } }, required: ["echoed"] },
      execute: async (args) => {
        log.push(`execute ${JSON.stringify(args)}`);
        return textResult("ok", { echoed: (args as { text: string }).text });
      },
    });
    const entry = entryOf(tool);
    const hooks: ExecutionHooks = {
      checkPolicy: (event) => {
        log.push(`policy ${JSON.stringify(event.args)}`);
        return { allowed: true };
      },
      beforeToolCall: (event) => {
        log.push(`before ${JSON.stringify(event.args)}`);
        return { params: { text: "rewritten" } };
      },
      requestApproval: (event) => {
        log.push(`approval ${JSON.stringify(event.args)}`);
        return { approved: true };
      },
      onCallFinished: (activity) => log.push(`finished ${activity.outcome} ${JSON.stringify(activity.args)}`),
    };
    const { executor } = makeExecutor([entry], { hooks });
    const result = await executor.execute(entry, { text: "repaired" }, { ...surface, toolCallId: "call-1" });
    expect(result.details).toEqual({ echoed: "rewritten" });
    expect(log).toEqual([
      'policy {"text":"repaired"}',
      'before {"text":"repaired"}',
      'approval {"text":"rewritten"}',
      'execute {"text":"rewritten"}',
      'finished ok {"text":"rewritten"}',
    ]);
  });

  it("hands hooks the entry, the surface, the call id and the caller's signal", async () => {
    const entry = entryOf(makeTool("t"));
    const seen: ToolCallEvent[] = [];
    const controller = new AbortController();
    const { executor } = makeExecutor([entry], {
      hooks: {
        checkPolicy: (event) => {
          seen.push(event);
          return { allowed: true };
        },
      },
    });
    await executor.execute(
      entry,
      { a: 1 },
      { surface: "code-mode", toolCallId: "c9", signal: controller.signal },
    );
    expect(seen[0]).toMatchObject({ entry, args: { a: 1 }, surface: "code-mode", toolCallId: "c9" });
    expect(seen[0]!.signal).toBe(controller.signal);
  });

  it("passes toolCallId and an abort signal to execute and returns the result", async () => {
    let context: unknown;
    const entry = entryOf(
      makeTool("t", {
        execute: async (_args, ctx) => {
          context = ctx;
          return textResult("done");
        },
      }),
    );
    const { executor } = makeExecutor([entry]);
    await expect(executor.execute(entry, {}, { ...surface, toolCallId: "id-7" })).resolves.toEqual(
      textResult("done"),
    );
    expect(context).toMatchObject({ toolCallId: "id-7" });
    expect((context as { signal: unknown }).signal).toBeInstanceOf(AbortSignal);
  });
});

describe("policy and availability (step 2)", () => {
  it("blocks on a policy denial and executes nothing", async () => {
    const tool = makeTool("t");
    const entry = entryOf(tool);
    const { executor, finished } = makeExecutor([entry], {
      hooks: { checkPolicy: () => ({ allowed: false, reason: "denied for agent ops" }) },
    });
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error).toBeInstanceOf(BlockedError);
    expect(error.code).toBe("BLOCKED");
    expect(error.message).toBe('Tool "native:core:t" was blocked: denied for agent ops');
    expect(error.details).toEqual({ status: "blocked", reason: "denied for agent ops" });
    expect(tool.calls).toHaveLength(0);
    expect(finished[0]).toMatchObject({ outcome: "blocked", result: { isError: true } });
  });

  it("fails an entry that is no longer available before any hook runs", async () => {
    const tool = makeTool("t");
    const entry = entryOf(tool);
    let hookCalls = 0;
    const { executor, available } = makeExecutor([entry], {
      hooks: {
        checkPolicy: () => {
          hookCalls += 1;
          return { allowed: true };
        },
      },
    });
    available.clear();
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error.code).toBe("TOOL_UNAVAILABLE");
    expect(error.message).toBe('Tool "native:core:t" is no longer available in this run.');
    expect(hookCalls).toBe(0);
    expect(tool.calls).toHaveLength(0);
  });

  it("re-checks availability right before execution (an approval may wait long)", async () => {
    const tool = makeTool("t");
    const entry = entryOf(tool);
    const approval = deferred<{ approved: true }>();
    const { executor, available } = makeExecutor([entry], {
      hooks: { requestApproval: () => approval.promise },
    });
    const pending = executor.execute(entry, {}, surface);
    await settle();
    available.delete(entry);
    approval.resolve({ approved: true });
    expect((await rejection(pending)).code).toBe("TOOL_UNAVAILABLE");
    expect(tool.calls).toHaveLength(0);
  });

  it("treats a throwing isAvailable as unavailable", async () => {
    const entry = entryOf(makeTool("t"));
    const executor = createExecutor({
      isAvailable: () => {
        throw new Error("broken");
      },
    });
    expect((await rejection(executor.execute(entry, {}, surface))).code).toBe("TOOL_UNAVAILABLE");
  });

  it("fails closed on malformed policy answers and throwing policy hooks", async () => {
    const entry = entryOf(makeTool("t"));
    const answers: Array<[unknown, string]> = [
      [undefined, "denied by policy"],
      [{ allowed: "yes" }, "denied by policy"],
      [{ allowed: false }, "denied by policy"],
      [{ allowed: false, reason: "" }, "denied by policy"],
    ];
    for (const [answer, reason] of answers) {
      const { executor } = makeExecutor([entry], {
        hooks: { checkPolicy: () => answer as { allowed: true } },
      });
      const error = await rejection(executor.execute(entry, {}, surface));
      expect(error.message).toBe(`Tool "native:core:t" was blocked: ${reason}`);
    }
    const { executor } = makeExecutor([entry], {
      hooks: {
        checkPolicy: () => {
          throw new Error("policy store down");
        },
      },
    });
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error.code).toBe("BLOCKED");
    expect(error.message).toBe('Tool "native:core:t" was blocked: policy check failed: policy store down');
  });
});

describe("before_tool_call hooks (step 3)", () => {
  it("blocks with the hook's reason and executes nothing", async () => {
    const tool = makeTool("t");
    const entry = entryOf(tool);
    const { executor } = makeExecutor([entry], {
      hooks: { beforeToolCall: () => ({ block: "secret in args" }) },
    });
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error.message).toBe('Tool "native:core:t" was blocked: secret in args');
    expect(error.details).toEqual({ status: "blocked", reason: "secret in args" });
    expect(tool.calls).toHaveLength(0);
  });

  it("keeps the arguments when the hook returns nothing or params undefined", async () => {
    const tool = makeTool("t");
    const entry = entryOf(tool);
    for (const answer of [undefined, {}, { params: undefined }, "nonsense"]) {
      const { executor } = makeExecutor([entry], {
        hooks: { beforeToolCall: () => answer as undefined },
      });
      await executor.execute(entry, { keep: 1 }, surface);
    }
    expect(tool.calls).toEqual([{ keep: 1 }, { keep: 1 }, { keep: 1 }, { keep: 1 }]);
  });

  it("blocks when the hook throws (fail closed)", async () => {
    const tool = makeTool("t");
    const entry = entryOf(tool);
    const { executor } = makeExecutor([entry], {
      hooks: {
        beforeToolCall: async () => {
          throw new Error("plugin crashed");
        },
      },
    });
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error.message).toBe(
      'Tool "native:core:t" was blocked: before_tool_call hook failed: plugin crashed',
    );
    expect(tool.calls).toHaveLength(0);
  });
});

describe("approval (step 4)", () => {
  it("asks for every call and blocks a denial without executing", async () => {
    const tool = makeTool("t");
    const entry = entryOf(tool);
    let asked = 0;
    const { executor } = makeExecutor([entry], {
      hooks: {
        requestApproval: () => {
          asked += 1;
          return asked === 1 ? { approved: true } : { approved: false, reason: "operator said no" };
        },
      },
    });
    await executor.execute(entry, {}, surface);
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(asked).toBe(2);
    expect(error.message).toBe('Tool "native:core:t" was blocked: operator said no');
    expect(tool.calls).toHaveLength(1);
  });

  it("uses the spec's wording for a native tool with an outputSchema", async () => {
    const entry = entryOf(makeTool("t", { outputSchema: { type: "object" } }));
    const { executor } = makeExecutor([entry], {
      hooks: { requestApproval: () => ({ approved: false, reason: "no" }) },
    });
    const error = await rejection(executor.execute(entry, {}, surface));
    expect(error.message).toBe('Tool "native:core:t" was blocked before execution: no');
  });

  it("stops waiting for an approval when the caller aborts", async () => {
    const tool = makeTool("t");
    const entry = entryOf(tool);
    const controller = new AbortController();
    const { executor } = makeExecutor([entry], { hooks: { requestApproval: () => new Promise(() => {}) } });
    const pending = executor.execute(entry, {}, { ...surface, signal: controller.signal });
    await settle();
    controller.abort(new Error("user pressed stop"));
    const error = await rejection(pending);
    expect(error.code).toBe("CANCELLED");
    expect(error.message).toBe('Tool "native:core:t" was cancelled.');
    expect(tool.calls).toHaveLength(0);
  });
});

describe("activity (step 9)", () => {
  it("reports every call once, with its outcome, and ignores errors thrown by the sink", async () => {
    const ok = entryOf(makeTool("ok"));
    const bad = entryOf(makeTool("bad", { parameters: { type: "object", required: ["x"] } }));
    const { executor, finished } = makeExecutor([ok, bad], {
      hooks: {
        onCallFinished: () => {
          throw new Error("log sink down");
        },
      },
    });
    await expect(executor.execute(ok, {}, surface)).resolves.toBeDefined();
    await rejection(executor.execute(bad, {}, surface));
    expect(finished.map((activity) => [activity.entry.name, activity.outcome])).toEqual([
      ["ok", "ok"],
      ["bad", "error"],
    ]);
    expect(finished[1]!.result).toMatchObject({
      isError: true,
      details: { error: { code: "INVALID_ARGUMENTS" } },
    });
  });

  it("ignores a rejected promise from an async activity sink", async () => {
    const entry = entryOf(makeTool("t"));
    const { executor, finished } = makeExecutor([entry], {
      hooks: {
        onCallFinished: (async () => {
          throw new Error("async sink down");
        }) as never,
      },
    });
    await expect(executor.execute(entry, {}, surface)).resolves.toBeDefined();
    await settle();
    expect(finished).toHaveLength(1);
  });

  it("reports calls refused by the schedule too", async () => {
    const entry = entryOf(makeTool("t"));
    const { executor, finished } = makeExecutor([entry]);
    executor.close();
    await rejection(executor.execute(entry, {}, surface));
    expect(finished).toHaveLength(1);
    expect(finished[0]!.result.details).toEqual({
      error: { code: "CATALOG_CLOSED", message: "Tool Search catalog is unavailable for this run." },
    });
  });
});
