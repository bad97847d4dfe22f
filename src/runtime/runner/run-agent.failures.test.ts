import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import type { ToolSearchConfigValue } from "../../core/tool-search/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { createProvider } from "../providers/index.js";
import {
  assistantSays,
  createRunnerHarness,
  eventsOfType,
  functionCall,
  type RunnerHarness,
  scriptedProvider,
  WEATHER_PLUGIN,
} from "./runner.test-support.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The `function_call_output` a later request carried for `callId`. */
function outputFor(input: readonly unknown[] | undefined, callId: string): string | undefined {
  const item = (input ?? []).find(
    (entry) =>
      (entry as { type?: string }).type === "function_call_output" &&
      (entry as { callId?: string }).callId === callId,
  ) as { output: string } | undefined;
  return item?.output;
}

test("a model that never stops calling tools ends incomplete after maxTurns requests", async () => {
  const provider = scriptedProvider((_request, index) => [
    functionCall(`loop_${index}`, "weather_forecast", { city: `City ${index}` }),
  ]);
  harness = await createRunnerHarness({ provider, toolSearch: false, agentDefaults: { maxTurns: 3 } });
  const result = await harness.say("loop", "keep going");

  expect(result.status).toBe("incomplete");
  expect(result.error?.code).toBe("TURN_LIMIT");
  expect(result.error?.message).toContain("3 model requests");
  expect(provider.requests).toHaveLength(3);
  const events = await harness.events("loop");
  expect(eventsOfType(events, "model-request")).toHaveLength(3);
  expect(eventsOfType(events, "tool-result").map((event) => event.output)).toEqual([
    'weather_forecast ok {"city":"City 0"}',
    'weather_forecast ok {"city":"City 1"}',
    'weather_forecast ok {"city":"City 2"}',
  ]);
  expect(eventsOfType(events, "run-summary")[0]).toMatchObject({
    status: "incomplete",
    turns: 3,
    error: expect.stringContaining("TURN_LIMIT"),
  });
});

test("the default turn limit is 24 model requests", async () => {
  const provider = scriptedProvider((_request, index) => [
    functionCall(`c${index}`, "email_send", { to: "a" }),
  ]);
  harness = await createRunnerHarness({ provider, toolSearch: false });
  const result = await harness.say("default-limit", "go");
  expect(result.status).toBe("incomplete");
  expect(provider.requests).toHaveLength(24);
});

test("a tool that never settles fails the run with RUN_TIMEOUT, and the log still gets its summary", async () => {
  harness = await createRunnerHarness({
    toolSearch: false,
    agentDefaults: { runTimeoutMs: 300 },
    plugins: [
      {
        id: "stuck",
        tools: [{ name: "stuck_wait", description: "Waits forever.", body: "return new Promise(() => {});" }],
      },
    ],
  });
  const result = await harness.say("stuck", "target=stuck_wait");
  expect(result.status).toBe("failed");
  expect(result.error).toEqual({ code: "RUN_TIMEOUT", message: "The run exceeded its timeout of 300 ms." });
  const events = await harness.events("stuck");
  expect(eventsOfType(events, "run-summary")[0]).toMatchObject({
    status: "failed",
    error: expect.stringMatching(/^RUN_TIMEOUT: /),
  });
  expect(harness.logLines.some((line) => line.includes("RUN_TIMEOUT"))).toBe(true);
});

test("the run timeout holds against a provider that ignores its abort signal", async () => {
  const provider = scriptedProvider(() => new Promise(() => {}));
  harness = await createRunnerHarness({ provider, agentDefaults: { runTimeoutMs: 200 } });
  const result = await harness.say("hung-provider", "hello");
  expect(result.status).toBe("failed");
  expect(result.error?.code).toBe("RUN_TIMEOUT");
  expect(eventsOfType(await harness.events("hung-provider"), "run-summary")[0]?.status).toBe("failed");
});

test("a run the caller aborts fails with CANCELLED", async () => {
  const controller = new AbortController();
  const provider = scriptedProvider(() => {
    controller.abort();
    return new Promise(() => {});
  });
  harness = await createRunnerHarness({ provider });
  const result = await harness.say("aborted", "hello", { signal: controller.signal });
  expect(result.status).toBe("failed");
  expect(result.error?.code).toBe("CANCELLED");
});

test("a provider failing with PROVIDER_FAILED fails the run with that code and still logs a run-summary", async () => {
  const message = 'Provider "mock" failed: 503 Service Unavailable. Try again later.';
  const provider = scriptedProvider(() => {
    throw new ToolsiftError("PROVIDER_FAILED", message);
  });
  harness = await createRunnerHarness({ provider });
  const result = await harness.say("provider-down", "hello");
  expect(result.status).toBe("failed");
  expect(result.error).toEqual({ code: "PROVIDER_FAILED", message });
  expect(result.output).toEqual([]);
  const events = await harness.events("provider-down");
  expect(events.map((event) => event.type)).toEqual(["session", "user-input", "run-summary"]);
  expect(eventsOfType(events, "run-summary")[0]).toMatchObject({
    status: "failed",
    turns: 1,
    error: `PROVIDER_FAILED: ${message}`,
  });
});

test("a provider throwing something unexpected fails as INTERNAL without passing its text to the caller", async () => {
  const provider = scriptedProvider(() => {
    throw new Error("socket hang up at /secret/path.js:12");
  });
  harness = await createRunnerHarness({ provider });
  const result = await harness.say("provider-bug", "hello");
  expect(result.status).toBe("failed");
  expect(result.error?.code).toBe("INTERNAL");
  expect(result.error?.message).not.toContain("/secret/path.js");
  expect(harness.logLines.some((line) => line.includes("socket hang up"))).toBe(true);
});

test("a real provider endpoint answering 503 fails the run with PROVIDER_FAILED", async () => {
  const server: Server = createServer((_request, response) => {
    response.writeHead(503, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: "overloaded", type: "server_error" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    harness = await createRunnerHarness({
      provider: createProvider("mock", {
        api: "openai-responses",
        baseUrl: `http://127.0.0.1:${port}/v1`,
        maxRetries: 0,
      }),
    });
    const result = await harness.say("http-503", "hello");
    expect(result.status).toBe("failed");
    expect(result.error?.code).toBe("PROVIDER_FAILED");
    expect(result.error?.message).toContain("mock");
    expect(eventsOfType(await harness.events("http-503"), "run-summary")[0]?.status).toBe("failed");
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("function-call arguments that are not JSON reach the model as an error output", async () => {
  const provider = scriptedProvider((_request, index) =>
    index === 0 ? [functionCall("bad_json", "weather_forecast", "{city: Oslo")] : [assistantSays("sorry")],
  );
  harness = await createRunnerHarness({ provider, toolSearch: false });
  const result = await harness.say("bad-json", "weather?");
  expect(result).toMatchObject({ status: "completed", text: "sorry" });
  const output = outputFor(provider.requests[1]?.input, "bad_json");
  expect(output).toBe("Arguments for weather_forecast are not valid JSON: send one JSON object.");
  const [toolResult] = eventsOfType(await harness.events("bad-json"), "tool-result");
  expect(toolResult).toMatchObject({ callId: "bad_json", isError: true, output });
});

test("malformed tool_call arguments in tools mode are an error output too", async () => {
  const provider = scriptedProvider((_request, index) =>
    index === 0
      ? [functionCall("bad_call", "tool_call", '{"id": "weather_forecast", ')]
      : [assistantSays("ok")],
  );
  harness = await createRunnerHarness({ provider, toolSearch: { mode: "tools" } });
  const result = await harness.say("bad-call", "weather?");
  expect(result.status).toBe("completed");
  expect(outputFor(provider.requests[1]?.input, "bad_call")).toContain("not valid JSON");
  expect(eventsOfType(await harness.events("bad-call"), "target-activity")).toHaveLength(0);
});

test("arguments that break the tool's schema are an error output, and the tool does not run", async () => {
  const provider = scriptedProvider((_request, index) =>
    index === 0 ? [functionCall("wrong_args", "weather_forecast", { town: "Oslo" })] : [assistantSays("ok")],
  );
  harness = await createRunnerHarness({ provider, toolSearch: false });
  await harness.say("wrong-args", "weather?");
  const output = outputFor(provider.requests[1]?.input, "wrong_args") ?? "";
  expect(output).not.toContain("weather_forecast ok");
  expect(output).toMatch(/city/u);
  expect(eventsOfType(await harness.events("wrong-args"), "tool-result")[0]?.isError).toBe(true);
});

test("a plugin tool that throws becomes an error output and the run goes on", async () => {
  const provider = scriptedProvider((_request, index) =>
    index === 0 ? [functionCall("boom", "explode", {})] : [assistantSays("recovered")],
  );
  harness = await createRunnerHarness({
    provider,
    toolSearch: false,
    plugins: [
      WEATHER_PLUGIN,
      {
        id: "fragile",
        tools: [{ name: "explode", description: "Always throws.", body: 'throw new Error("disk on fire");' }],
      },
    ],
  });
  const result = await harness.say("throws", "go");
  expect(result).toMatchObject({ status: "completed", text: "recovered" });
  const [toolResult] = eventsOfType(await harness.events("throws"), "tool-result");
  expect(toolResult).toMatchObject({ callId: "boom", isError: true, toolId: "native:fragile:explode" });
});

test.each<[ToolSearchConfigValue, string]>([
  [
    { mode: "tools" },
    'Unknown tool "no_such_tool". Deferred tools are reached through tool_search, then tool_call.',
  ],
  [false, 'Unknown tool "no_such_tool".'],
])("an unknown tool name (toolSearch %j) gets an error output", async (toolSearch, expected) => {
  const provider = scriptedProvider((_request, index) =>
    index === 0 ? [functionCall("ghost", "no_such_tool", { a: 1 })] : [assistantSays("ok")],
  );
  harness = await createRunnerHarness({ provider, toolSearch });
  const result = await harness.say("unknown", "go");
  expect(result.status).toBe("completed");
  expect(outputFor(provider.requests[1]?.input, "ghost")).toBe(expected);
  const [toolResult] = eventsOfType(await harness.events("unknown"), "tool-result");
  expect(toolResult).toMatchObject({ name: "no_such_tool", isError: true, output: expected });
  expect(toolResult?.toolId).toBeUndefined();
});

test("a session store that cannot write target activity neither fails the run nor leaks a rejection", async () => {
  harness = await createRunnerHarness({
    toolSearch: { mode: "tools" },
    wrapSessions: (store) => ({
      append: (agentId, sessionKey, event) =>
        event.type === "target-activity"
          ? Promise.reject(new Error("disk full"))
          : store.append(agentId, sessionKey, event),
      read: (agentId, sessionKey) => store.read(agentId, sessionKey),
      list: () => store.list(),
    }),
  });
  const result = await harness.say("no-activity", "target=weather_forecast");
  expect(result.status).toBe("completed");
  expect(result.text).toContain("weather_forecast ok");
  expect(eventsOfType(await harness.events("no-activity"), "target-activity")).toHaveLength(0);
  expect(harness.logLines.some((line) => line.includes("could not log target activity: disk full"))).toBe(
    true,
  );
});

test("provider requests share the run's signal: listeners a client never removes raise no leak warning and die with the run", async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", onWarning);
  const signals = new Set<AbortSignal>();
  let aborted = 0;
  const base = scriptedProvider((_request, index) =>
    index < 14
      ? [functionCall(`w_${index}`, "weather_forecast", { city: `C${index}` })]
      : [assistantSays("done")],
  );
  const provider = {
    ...base,
    complete(request: Parameters<typeof base.complete>[0]) {
      // As the `openai` client does: one abort listener per request, never removed.
      request.signal?.addEventListener("abort", () => {
        aborted += 1;
      });
      if (request.signal) signals.add(request.signal);
      return base.complete(request);
    },
  };
  try {
    harness = await createRunnerHarness({ provider, toolSearch: false, agentDefaults: { maxTurns: 20 } });
    const result = await harness.say("many-turns", "keep going");
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("completed");
    expect(base.requests).toHaveLength(15);
    // One signal for the whole run, carrying all 15 listeners; nothing aborted it.
    expect(signals.size).toBe(1);
    expect(aborted).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.includes("MaxListeners"))).toEqual([]);
  } finally {
    process.off("warning", onWarning);
  }
});
