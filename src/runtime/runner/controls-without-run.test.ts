import { afterEach, describe, expect, it } from "vitest";
import type { CatalogSnapshot, ToolDefinition } from "../../core/catalog/index.js";
import { createRunCaches } from "../environment/index.js";
import type { ConversationItem } from "../providers/index.js";
import {
  assistantSays,
  createRunnerHarness,
  functionCall,
  type RunnerHarness,
  type RunnerHarnessOptions,
  scriptedProvider,
} from "./runner.test-support.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The output a run's conversation carries for a call id (what the model read back). */
function outputOf(items: readonly ConversationItem[] | undefined, callId: string): string | undefined {
  const item = items?.find((entry) => entry.type === "function_call_output" && entry.callId === callId);
  return item?.type === "function_call_output" ? item.output : undefined;
}

/** A provider that makes one control call, then answers "done". */
function callingOnce(name: string, args: unknown) {
  return scriptedProvider((_request, index) =>
    index === 0 ? [functionCall("call-1", name, args)] : [assistantSays("done")],
  );
}

describe("tool_search and tool_describe answered without a run", () => {
  it("searchTools answers exactly what tool_search returned inside a real run over the mock", async () => {
    harness = await createRunnerHarness({ toolSearch: { enabled: true, mode: "tools" } });
    const result = await harness.say("s-mock", "please target=weather_forecast");
    expect(result.status).toBe("completed");
    const [first, second] = harness.mockBodies();
    // The mock's own tool_search call, and the output the run sent back to it.
    const input = second?.input as Array<Record<string, unknown>>;
    const call = input.find((item) => item.type === "function_call" && item.name === "tool_search");
    expect(call).toBeDefined();
    const args = JSON.parse(String(call?.arguments)) as { query: string; limit?: number };
    const output = input.find(
      (item) => item.type === "function_call_output" && item.call_id === call?.call_id,
    );
    expect(typeof output?.output).toBe("string");

    const look = await harness.runner.searchTools?.({ agentId: "main", ...args });
    expect(look?.answer).toEqual({ output: output?.output, isError: false });
    expect(look?.answer?.output).toContain("weather_forecast");
    expect(look?.toolSearch).toEqual({ enabled: true, mode: "tools" });
    // The bytes declared are those of the `tools` field the run sent on the wire.
    expect(look?.bytes.declared).toBe(Buffer.byteLength(JSON.stringify(first?.tools), "utf8"));
    expect(look?.bytes.result).toBe(Buffer.byteLength(String(output?.output), "utf8"));
    expect(look?.bytes.saved).toBe(
      (look?.bytes.everyTool ?? 0) - (look?.bytes.declared ?? 0) - (look?.bytes.result ?? 0),
    );
  });

  it("the bytes are those of the tools field on the wire, in each provider API (Tool Search off: every tool)", async () => {
    /** UTF-8 bytes of the `tools` field of the first request body the mock received. */
    const wireToolBytes = (run: RunnerHarness) =>
      Buffer.byteLength(JSON.stringify(run.mockBodies()[0]?.tools), "utf8");
    for (const api of ["openai-responses", "openai-chat", "anthropic-messages"] as const) {
      const off = await createRunnerHarness({ api, toolSearch: false });
      let upFront: number;
      try {
        expect((await off.say("s-off", "hello")).status, api).toBe("completed");
        upFront = wireToolBytes(off);
      } finally {
        await off.close();
      }
      harness = await createRunnerHarness({ api, toolSearch: { enabled: true } });
      expect((await harness.say("s-on", "hello")).status, api).toBe("completed");
      const look = await harness.runner.searchTools?.({ agentId: "main", query: "send an email" });
      expect(look?.bytes.everyTool, api).toBe(upFront);
      expect(look?.bytes.declared, api).toBe(wireToolBytes(harness));
      expect(look?.bytes.everyTool, api).not.toBe(look?.bytes.declared);
      await harness.close();
      harness = undefined;
    }
  });

  it("a query, a limit and an agent's policy give what the model gets in that agent's run", async () => {
    const cases = [
      { agentId: "main", query: "send an email message", limit: 2 },
      { agentId: "main", query: "calendar", limit: 30 },
      { agentId: "narrow", query: "send an email message" },
      { agentId: "main", query: "xyzzy plover" },
    ];
    for (const look of cases) {
      const { agentId, ...args } = look;
      const provider = callingOnce("tool_search", args);
      harness = await createRunnerHarness({
        provider,
        toolSearch: { enabled: true, searchDefaultLimit: 3, maxSearchLimit: 5 },
        agentsList: [{ id: "narrow", tools: { deny: ["email_send"] } }],
      });
      await harness.runner.run({
        agentId,
        sessionKey: "s-look",
        input: [{ type: "message", role: "user", text: "look" }],
      });
      const inRun = outputOf(provider.requests[1]?.input, "call-1");
      expect(inRun, JSON.stringify(look)).toBeDefined();
      const preview = await harness.runner.searchTools?.({ agentId, ...args });
      expect(preview?.answer?.output, JSON.stringify(look)).toBe(inRun);
      expect(preview?.arguments).toEqual(args);
      if (agentId === "narrow") expect(preview?.answer?.output).not.toContain("email_send");
      await harness.close();
      harness = undefined;
    }
  });

  it("a batch (queries) gives what the model gets in a run, a batch over the control's budget its refusal", async () => {
    const seventeen = Array.from({ length: 17 }, (_, index) => ({ query: `q${index}` }));
    const cases = [
      [{ query: "send an email message", limit: 2 }, { query: "calendar" }],
      [{ query: "weather" }, { query: "weather", limit: 1 }],
      seventeen,
    ];
    for (const queries of cases) {
      const provider = callingOnce("tool_search", { queries });
      harness = await createRunnerHarness({
        provider,
        toolSearch: { enabled: true, searchDefaultLimit: 3, maxSearchLimit: 5 },
      });
      await harness.runner.run({
        agentId: "main",
        sessionKey: "s-look",
        input: [{ type: "message", role: "user", text: "look" }],
      });
      const inRun = outputOf(provider.requests[1]?.input, "call-1");
      expect(inRun, JSON.stringify(queries)).toBeDefined();
      const preview = await harness.runner.searchTools?.({ agentId: "main", queries });
      expect(preview?.answer?.output, JSON.stringify(queries)).toBe(inRun);
      expect(preview?.arguments).toEqual({ queries });
      expect(preview?.bytes.result).toBe(Buffer.byteLength(String(inRun), "utf8"));
      if (queries === seventeen) {
        expect(preview?.answer).toMatchObject({ isError: true, errorCode: "INVALID_REQUEST" });
        expect(preview?.answer?.output).toContain("16");
      } else {
        const batch = JSON.parse(String(inRun)) as { results: Array<{ query: string }> };
        expect(batch.results.map((group) => group.query)).toEqual(queries.map((item) => item.query));
      }
      await harness.close();
      harness = undefined;
    }
  });

  it("describeTool answers exactly what tool_describe returned in a run, an unknown id with its error", async () => {
    for (const id of ["native:weather:weather_forecast", "email_send", "no_such_tool"]) {
      const provider = callingOnce("tool_describe", { id });
      harness = await createRunnerHarness({ provider, toolSearch: { enabled: true } });
      await harness.say("s-describe", "describe");
      const inRun = outputOf(provider.requests[1]?.input, "call-1");
      const preview = await harness.runner.describeTool?.("main", id);
      expect(preview?.answer?.output, id).toBe(inRun);
      if (id === "no_such_tool") {
        expect(preview?.answer).toMatchObject({ isError: true, errorCode: "UNKNOWN_TOOL" });
      } else {
        expect(preview?.answer?.isError, preview?.answer?.output).toBe(false);
        expect(JSON.parse(preview?.answer?.output ?? "{}")).toHaveProperty("parameters");
      }
      await harness.close();
      harness = undefined;
    }
  });

  it("with Tool Search off (or Code Mode on) there is no answer, only the bytes", async () => {
    harness = await createRunnerHarness({
      provider: scriptedProvider(() => [assistantSays("done")]),
      toolSearch: false,
    });
    const look = await harness.runner.searchTools?.({ agentId: "main", query: "weather" });
    expect(look?.toolSearch.enabled).toBe(false);
    expect(look?.answer).toBeUndefined();
    expect(look?.bytes.declared).toBe(look?.bytes.everyTool);
    expect((await harness.runner.describeTool?.("main", "email_send"))?.answer).toBeUndefined();
    await harness.close();
    harness = await createRunnerHarness({
      provider: scriptedProvider(() => [assistantSays("done")]),
      toolSearch: { enabled: true },
      agentDefaults: {},
    });
    harness.config.codeMode = { enabled: true };
    const coded = await harness.runner.searchTools?.({ agentId: "main", query: "weather" });
    expect(coded?.toolSearch.enabled).toBe(false);
    expect(coded?.answer).toBeUndefined();

    // Under Code Mode the bytes declared are those of the tools a run sends (exec, wait), not the controls'.
    await harness.close();
    harness = await createRunnerHarness({ toolSearch: { enabled: true }, agentDefaults: {} });
    harness.config.codeMode = { enabled: true };
    expect((await harness.say("s-code", "hello")).status).toBe("completed");
    const wire = harness.mockBodies()[0]?.tools as Array<{ name?: string }> | undefined;
    expect(wire?.map((tool) => tool.name)).toEqual(["exec", "wait"]);
    const onWire = await harness.runner.searchTools?.({ agentId: "main", query: "weather" });
    expect(onWire?.bytes.declared).toBe(Buffer.byteLength(JSON.stringify(wire), "utf8"));
  });

  it("a repeated look reuses the environment's catalog and search index", async () => {
    const caches = createRunCaches();
    const snapshots: CatalogSnapshot[] = [];
    const indexes = caches.indexes;
    const counting = {
      ...caches,
      indexes: {
        search(snapshot: CatalogSnapshot, query: string, limit: number) {
          snapshots.push(snapshot);
          return indexes.search(snapshot, query, limit);
        },
      },
    };
    harness = await createRunnerHarness({
      caches: counting,
      provider: scriptedProvider(() => [assistantSays("done")]),
      toolSearch: { enabled: true },
    });
    for (const query of ["weather", "calendar event", "email"])
      await harness.runner.searchTools?.({ agentId: "main", query });
    expect(snapshots).toHaveLength(3);
    // One snapshot for every look: the index the first look built is the one later looks search.
    expect(new Set(snapshots).size).toBe(1);
    expect(caches.catalogs.size).toBe(1);
  });

  it("a repeated look measures every tool's bytes once per tool list; a changed source is measured anew", async () => {
    const tool = (description: string): ToolDefinition => ({
      name: "lookup_order",
      description,
      parameters: { type: "object", properties: { id: { type: "string" } } },
      execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
    });
    let extra = [tool("Look up an order by its id.")];
    let gathered = 0;
    // The harness reads `extraTools` each time a surface gathers the agent's tools.
    const options: RunnerHarnessOptions = {
      provider: scriptedProvider(() => [assistantSays("done")]),
      toolSearch: { enabled: true },
      get extraTools() {
        gathered += 1;
        return extra;
      },
    };
    harness = await createRunnerHarness(options);
    const looks = async () => {
      const before = gathered;
      const look = await harness?.runner.searchTools?.({ agentId: "main", query: "order" });
      return { surfaces: gathered - before, everyTool: look?.bytes.everyTool ?? 0 };
    };
    const first = await looks();
    expect(first.surfaces).toBe(2);
    expect(await looks()).toEqual({ surfaces: 1, everyTool: first.everyTool });
    extra = [tool("Look up a shipped order by its tracking id, with the carrier's status.")];
    const changed = await looks();
    expect(changed.surfaces).toBe(2);
    expect(changed.everyTool).toBeGreaterThan(first.everyTool);
  });
});
