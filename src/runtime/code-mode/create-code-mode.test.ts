import { setTimeout as delay } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import type { ToolCallActivity } from "../../core/execution/index.js";
import { createToolSearch } from "../../core/tool-search/index.js";
import {
  codeModeToolSearch,
  completedValue,
  errorOf,
  gate,
  pluginTool,
  weatherTool,
} from "./code-mode.test-support.js";
import { createCodeMode } from "./create-code-mode.js";
import { MAX_CONCURRENT_CELLS, MAX_SOURCE_CHARS } from "./limits.js";

const weather = weatherTool();
const slowRelease = gate();
const activity: ToolCallActivity[] = [];
const toolSearch = codeModeToolSearch(
  [
    weather.tool,
    pluginTool("ops", "deploy_service", { description: "Deploy a service to production." }),
    pluginTool("ops", "slow_report", {
      description: "Build a slow report.",
      run: async () => {
        await slowRelease.promise;
        return { content: [{ type: "text", text: "report" }], details: { rows: 3 } };
      },
    }),
    pluginTool("ops", "broken_tool", {
      description: "Always reports an error.",
      run: () => ({ content: [{ type: "text", text: "disk full" }], isError: true }),
    }),
    pluginTool("ops", "huge_answer", {
      description: "Answers with far too much data.",
      run: () => ({ content: [{ type: "text", text: "x".repeat(5 * 2 ** 20) }] }),
    }),
  ],
  {
    checkPolicy: (event) =>
      event.entry.name === "deploy_service"
        ? { allowed: false, reason: "deployments are frozen" }
        : { allowed: true },
    onCallFinished: (finishedCall) => activity.push(finishedCall),
  },
);
const codeMode = createCodeMode({ toolSearch, poolSize: 2, timeoutMs: 5_000 });
afterAll(() => codeMode.close());

describe("createCodeMode: search, describe and call through the bridge", () => {
  it("finds, describes and calls a plugin tool, and returns the cell's value and logs", async () => {
    const before = toolSearch.telemetry();
    const outcome = await codeMode.exec(`
      const hits = await tools.search("weather forecast for a city", { limit: 3 });
      const spec = await tools.describe(hits[0].id);
      const envelope = await tools.call(spec.id, { city: "Oslo" });
      console.log("called", envelope.tool.id);
      console.warn("careful");
      return { id: spec.id, required: spec.parameters.required, text: envelope.result.content[0].text, details: envelope.result.details };
    `);
    expect(outcome).toEqual({
      status: "completed",
      value: {
        id: "native:weather:get_forecast",
        required: ["city"],
        text: "Sunny in Oslo.",
        details: { city: "Oslo", tempC: 21 },
      },
      logs: ["called native:weather:get_forecast", "[warn] careful"],
    });
    expect(weather.calls).toContainEqual({ city: "Oslo" });
    const after = toolSearch.telemetry();
    expect(after.searchCount - before.searchCount).toBe(1);
    expect(after.describeCount - before.describeCount).toBe(1);
    expect(after.callCount - before.callCount).toBe(1);
  });

  it("returns a call's details with callValue, and accepts the openclaw.tools aliases", async () => {
    const value = completedValue(
      await codeMode.exec(`
        const hits = await openclaw.tools.search("forecast");
        const spec = await openclaw.tools.describe(hits[0].id);
        const viaCall = await openclaw.tools.call(spec.id, { city: "Rome" });
        const viaValue = await tools.callValue("get_forecast", { city: "Lima" });
        return { viaCall: viaCall.result.details, viaValue, same: openclaw.tools === tools };
      `),
    );
    expect(value).toEqual({
      viaCall: { city: "Rome", tempC: 21 },
      viaValue: { city: "Lima", tempC: 21 },
      same: true,
    });
  });

  it("tags every call of the cell with the exec call's id, through the executor's activity hook", async () => {
    activity.length = 0;
    completedValue(
      await codeMode.exec(`return await tools.callValue("get_forecast", { city: "Bern" })`, {
        toolCallId: "call_exec_7",
      }),
    );
    expect(activity.map((call) => [call.entry.id, call.toolCallId, call.outcome])).toEqual([
      ["native:weather:get_forecast", "call_exec_7", "ok"],
    ]);
  });

  it("surfaces a policy block as a catchable error with code BLOCKED, and the tool never runs", async () => {
    activity.length = 0;
    const value = completedValue(
      await codeMode.exec(`
        try {
          await tools.call("deploy_service", { service: "api" });
          return "not blocked";
        } catch (error) {
          return { name: error.name, code: error.code, message: error.message, isError: error instanceof Error };
        }
      `),
    );
    expect(value).toEqual({
      name: "ToolsiftError",
      code: "BLOCKED",
      message: 'Tool "native:ops:deploy_service" was blocked: deployments are frozen',
      isError: true,
    });
    expect(activity.map((call) => call.outcome)).toEqual(["blocked"]);
  });

  it("fails the cell with the tool error's code when a block is not caught", async () => {
    const outcome = await codeMode.exec(`await tools.call("deploy_service", {}); return "unreachable";`);
    expect(errorOf(outcome)).toEqual({
      code: "BLOCKED",
      message: 'Tool "native:ops:deploy_service" was blocked: deployments are frozen',
    });
  });

  it("passes validation errors, unknown tools and error results into the cell as rejections", async () => {
    const value = completedValue(
      await codeMode.exec(`
        const codes = [];
        for (const attempt of [
          () => tools.call("get_forecast", { town: "Oslo" }),
          () => tools.call("no_such_tool", {}),
          () => tools.describe("no_such_tool"),
          () => tools.search(42),
          () => tools.callValue("broken_tool", {}),
          () => tools.call("huge_answer", {}),
        ]) {
          try { await attempt(); codes.push("resolved"); } catch (error) { codes.push(error.code); }
        }
        const envelope = await tools.call("broken_tool", {});
        return { codes, isError: envelope.result.isError };
      `),
    );
    expect(value).toEqual({
      codes: [
        "INVALID_ARGUMENTS",
        "UNKNOWN_TOOL",
        "UNKNOWN_TOOL",
        "INVALID_REQUEST",
        "TOOL_FAILED",
        "TOOL_FAILED",
      ],
      isError: true,
    });
  });
});

describe("createCodeMode: the cell's value", () => {
  it.each([
    ["a value of undefined becomes null", "return undefined;", null],
    ["no return gives null", "const x = 1;", null],
    [
      "strings, numbers and nested data pass as JSON",
      "return { a: [1, 'two', true, null] };",
      { a: [1, "two", true, null] },
    ],
    ["NaN follows JSON and becomes null", "return NaN;", null],
  ])("%s", async (_name, source, expected) => {
    expect(completedValue(await codeMode.exec(source))).toEqual(expected);
  });

  it.each([
    ["a function", "return () => 1;", "INVALID_VALUE"],
    ["a BigInt", "return 10n;", "INVALID_VALUE"],
    ["a cycle", "const a = {}; a.self = a; return a;", "INVALID_VALUE"],
    ["a value over 256 KiB of JSON", "return 'x'.repeat(300 * 1024);", "INVALID_VALUE"],
    ["a thrown Error", "throw new TypeError('bad input');", "CELL_ERROR"],
    ["a thrown string", "throw 'plain';", "CELL_ERROR"],
    ["a syntax error", "return (;", "CELL_ERROR"],
  ])("fails the cell for %s", async (_name, source, code) => {
    expect(errorOf(await codeMode.exec(source)).code).toBe(code);
  });

  it("says what was thrown, and on which line of the cell", async () => {
    expect(errorOf(await codeMode.exec("throw new TypeError('bad input');"))).toEqual({
      code: "CELL_ERROR",
      message: "TypeError: bad input (line 1 of the cell)",
    });
    expect(errorOf(await codeMode.exec("const a = 1;\nconst b = 2;\nreturn a.b.c;"))).toEqual({
      code: "CELL_ERROR",
      message: "TypeError: cannot read property 'c' of undefined (line 3 of the cell)",
    });
    expect(errorOf(await codeMode.exec("const a = 1;\nreturn (;"))).toEqual({
      code: "CELL_ERROR",
      message: "SyntaxError: unexpected token in expression: ';' (line 2 of the cell)",
    });
  });

  it("cannot break out of the function wrapper with the source text", async () => {
    const outcome = await codeMode.exec("}); return 1; (async () => {");
    expect(errorOf(outcome).code).toBe("CELL_ERROR");
  });
});

describe("createCodeMode: bad requests", () => {
  it.each([
    ["an empty source", ""],
    ["a blank source", "   \n "],
    ["a number", 42],
    ["undefined", undefined],
    ["a source over the length limit", "x".repeat(MAX_SOURCE_CHARS + 1)],
  ])("answers INVALID_REQUEST for %s without starting a cell", async (_name, source) => {
    expect(errorOf(await codeMode.exec(source as string)).code).toBe("INVALID_REQUEST");
  });

  it("refuses a ToolSearch that has Tool Search on, and a missing one", () => {
    const enabled = createToolSearch({ tools: [weatherTool().tool] });
    expect(() => createCodeMode({ toolSearch: enabled })).toThrow(/codeModeEnabled: true/u);
    expect(() => createCodeMode({} as never)).toThrow(/needs \{ toolSearch \}/u);
  });
});

describe("createCodeMode: yieldMs and wait", () => {
  it("answers running when the cell outlives yieldMs, and wait returns the result once", async () => {
    const first = await codeMode.exec(`return await tools.callValue("slow_report", {});`, { yieldMs: 20 });
    expect(first.status).toBe("running");
    const runId = first.status === "running" ? first.runId : "";
    expect(runId).toMatch(/^cell_[0-9a-f]{24}$/u);
    expect(await codeMode.wait(runId, { yieldMs: 10 })).toEqual({ status: "running", runId });
    slowRelease.open();
    expect(await codeMode.wait(runId)).toEqual({ status: "completed", value: { rows: 3 }, logs: [] });
    expect(errorOf(await codeMode.wait(runId)).code).toBe("UNKNOWN_RUN");
  });

  it("answers UNKNOWN_RUN with a way out for ids it never gave", async () => {
    const error = errorOf(await codeMode.wait("cell_000000000000000000000000"));
    expect(error.code).toBe("UNKNOWN_RUN");
    expect(error.message).toContain("Start a new cell with exec.");
    expect(errorOf(await codeMode.wait(undefined as unknown as string)).code).toBe("UNKNOWN_RUN");
  });
});

describe("createCodeMode: sequential tools are exclusive across cells and direct calls", () => {
  for (const mode of ["sequential", "parallel"] as const) {
    it(`${mode === "sequential" ? "never overlaps" : "(control) does overlap"} a ${mode} tool called from a cell and directly`, async () => {
      const events: string[] = [];
      const cellStarted = gate();
      const directStarted = gate();
      const bridgeCallArrived = gate();
      const tool = pluginTool("db", "migrate_step", {
        executionMode: mode,
        run: async (args) => {
          const who = (args as { who: string }).who;
          events.push(`${who}:start`);
          if (who === "direct") {
            directStarted.open();
            // Hold until the cell's call has started, or (when the schedule queues it, as it must for a
            // sequential tool) a moment after it reached the parent.
            await Promise.race([cellStarted.promise, bridgeCallArrived.promise.then(() => delay(100))]);
          } else {
            cellStarted.open();
          }
          events.push(`${who}:end`);
          return { content: [{ type: "text", text: who }], details: who };
        },
      });
      const search = codeModeToolSearch([tool]);
      const watched = Object.create(search, {
        call: {
          value: (id: string, args: unknown, context: object) => {
            bridgeCallArrived.open();
            return search.call(id, args, context);
          },
        },
      }) as typeof search;
      const local = createCodeMode({ toolSearch: watched });
      try {
        const direct = search.call("migrate_step", { who: "direct" });
        await directStarted.promise;
        const cell = await local.exec(`return await tools.callValue("migrate_step", { who: "cell" });`);
        expect(completedValue(cell)).toBe("cell");
        expect((await direct).result.details).toBe("direct");
        if (mode === "sequential")
          expect(events).toEqual(["direct:start", "direct:end", "cell:start", "cell:end"]);
        else expect(events).toEqual(["direct:start", "cell:start", "cell:end", "direct:end"]);
      } finally {
        await local.close();
      }
    });
  }
});

describe("createCodeMode: cancel, close and concurrency", () => {
  it("stops a cell when its caller aborts, and its pending tool call is cancelled", async () => {
    const hold = gate();
    const started = gate();
    let sawAbort = false;
    const tool = pluginTool("ops", "wait_forever", {
      run: async () => {
        started.open();
        await hold.promise;
        return { content: [] };
      },
    });
    const calls: ToolCallActivity[] = [];
    const callFinished = gate();
    const search = codeModeToolSearch([tool], {
      onCallFinished: (call) => {
        calls.push(call);
        callFinished.open();
      },
    });
    const local = createCodeMode({ toolSearch: search });
    try {
      const controller = new AbortController();
      const pending = local.exec(`await tools.call("wait_forever", {}); return 1;`, {
        signal: controller.signal,
      });
      await started.promise;
      controller.abort();
      expect(errorOf(await pending).code).toBe("CANCELLED");
      await callFinished.promise;
      expect(
        calls.map((call) => [
          call.outcome,
          (call.result.details as { error?: { code?: string } }).error?.code,
        ]),
      ).toEqual([["error", "CANCELLED"]]);
      sawAbort = true;
    } finally {
      hold.open();
      await local.close();
    }
    expect(sawAbort).toBe(true);
  });

  it(`answers BUSY past ${MAX_CONCURRENT_CELLS} running cells, and close fails them all as CLOSED`, async () => {
    const search = codeModeToolSearch([]);
    const local = createCodeMode({ toolSearch: search });
    const runIds: string[] = [];
    for (let index = 0; index < MAX_CONCURRENT_CELLS; index += 1) {
      const outcome = await local.exec("await new Promise(() => {});", { yieldMs: 0 });
      expect(outcome.status).toBe("running");
      if (outcome.status === "running") runIds.push(outcome.runId);
    }
    expect(errorOf(await local.exec("return 1;")).code).toBe("BUSY");
    const waiting = runIds.map((runId) => local.wait(runId));
    await local.close();
    for (const outcome of await Promise.all(waiting)) expect(errorOf(outcome).code).toBe("CLOSED");
    expect(errorOf(await local.exec("return 1;")).code).toBe("CLOSED");
    expect(errorOf(await local.wait(runIds[0] as string)).code).toBe("CLOSED");
  });
});
