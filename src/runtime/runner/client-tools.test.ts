import { afterEach, expect, test } from "vitest";
import type { ConversationItem, ProviderRequest } from "../providers/index.js";
import { summarizeSession } from "../sessions/index.js";
import {
  assistantSays,
  clientTool,
  createRunnerHarness,
  eventsOfType,
  functionCall,
  type RunnerHarness,
  scriptedProvider,
} from "./runner.test-support.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const PAINT = clientTool("paint_fence", "Paint the garden fence in a colour.");

/** The one function_call a requires_action result hands to the client. */
function handedCall(
  output: readonly ConversationItem[],
): Extract<ConversationItem, { type: "function_call" }> {
  const calls = output.filter(
    (item): item is Extract<ConversationItem, { type: "function_call" }> => item.type === "function_call",
  );
  expect(calls).toHaveLength(1);
  return calls[0] as Extract<ConversationItem, { type: "function_call" }>;
}

test("tools mode: a client tool reached through tool_call ends the run; its output continues the session", async () => {
  harness = await createRunnerHarness({ toolSearch: { mode: "tools" } });
  const first = await harness.say("client-tools", "please target=paint_fence", { clientTools: [PAINT] });

  expect(first.status).toBe("requires_action");
  expect(first.text).toBe("");
  const handed = handedCall(first.output);
  expect(handed.name).toBe("paint_fence");
  expect(JSON.parse(handed.arguments)).toEqual({ note: "qa" });

  let events = await harness.events("client-tools");
  const parent = eventsOfType(events, "assistant-output")
    .flatMap((event) => event.items)
    .find((item) => item.type === "function_call" && item.name === "tool_call");
  expect(parent?.type === "function_call" && parent.callId).toBe(handed.callId);
  // The client tool is not declared to the provider: it was found through tool_search.
  expect(eventsOfType(events, "model-request")[0]?.declaredTools).toEqual([
    "tool_search",
    "tool_describe",
    "tool_call",
  ]);
  const [activity] = eventsOfType(events, "target-activity");
  expect(activity).toMatchObject({
    parentCallId: handed.callId,
    toolId: "client:client:paint_fence",
    name: "paint_fence",
    source: "client",
  });
  // The client answers this call: no tool-result of the runner's own for it.
  expect(eventsOfType(events, "tool-result").some((event) => event.callId === handed.callId)).toBe(false);
  expect(eventsOfType(events, "run-summary")[0]).toMatchObject({ status: "requires_action" });
  expect(summarizeSession(events).finalTool).toEqual({
    id: "client:client:paint_fence",
    name: "paint_fence",
    source: "client",
  });

  const requestsBefore = harness.mockBodies().length;
  const second = await harness.runner.run({
    agentId: "main",
    sessionKey: "client-tools",
    input: [{ type: "function_call_output", callId: handed.callId, output: "Fence painted green." }],
    clientTools: [PAINT],
  });
  expect(second.status).toBe("completed");
  expect(second.runId).not.toBe(first.runId);

  events = await harness.events("client-tools");
  expect(events.filter((event) => event.type === "session")).toHaveLength(1);
  expect(eventsOfType(events, "run-summary").map((event) => event.status)).toEqual([
    "requires_action",
    "completed",
  ]);

  // The provider got the conversation replayed without the display-only activity.
  const bodies = harness.mockBodies();
  expect(bodies.length).toBe(requestsBefore + 1);
  const input = bodies.at(-1)?.input as Array<Record<string, unknown>>;
  expect(input.map((item) => item.type ?? item.role)).toEqual([
    "user",
    "function_call",
    "function_call_output",
    "function_call",
    "function_call_output",
    "function_call",
    "function_call_output",
  ]);
  expect(input.at(-1)).toEqual({
    type: "function_call_output",
    call_id: handed.callId,
    output: "Fence painted green.",
  });
  expect(JSON.stringify(input)).not.toContain("Handed to the client");
  const calls = input.filter((item) => item.type === "function_call").map((item) => item.call_id);
  const outputs = input.filter((item) => item.type === "function_call_output").map((item) => item.call_id);
  expect(outputs).toEqual(calls);
});

test("directory mode: a client tool is declared directly, handed back, then answered", async () => {
  harness = await createRunnerHarness({ toolSearch: { mode: "directory" } });
  const first = await harness.say("client-direct", "target=paint_fence", { clientTools: [PAINT] });
  expect(first.status).toBe("requires_action");
  const handed = handedCall(first.output);
  expect(handed.name).toBe("paint_fence");

  const events = await harness.events("client-direct");
  const [request] = eventsOfType(events, "model-request");
  expect(request?.declaredTools).toEqual(["tool_search", "tool_describe", "tool_call", "paint_fence"]);
  expect(eventsOfType(events, "assistant-output")[0]?.items).toEqual([handed]);
  expect(eventsOfType(events, "target-activity")).toHaveLength(0);

  const second = await harness.runner.run({
    agentId: "main",
    sessionKey: "client-direct",
    input: [{ type: "function_call_output", callId: handed.callId, output: "painted it" }],
    clientTools: [PAINT],
  });
  expect(second).toMatchObject({ status: "completed", text: "Done. painted it" });
});

test("directory mode: a deferred client tool stays behind Tool Search, is found and handed back under its owner", async () => {
  harness = await createRunnerHarness({ toolSearch: { mode: "directory" } });
  const deferred = { ...PAINT, deferLoading: true, owner: "garden" };
  const first = await harness.say("client-deferred", "please target=paint_fence", {
    clientTools: [deferred, clientTool("water_plants", "Water the house plants.")],
  });
  expect(first.status).toBe("requires_action");
  const handed = handedCall(first.output);
  expect(handed.name).toBe("paint_fence");

  const events = await harness.events("client-deferred");
  // Not declared, unlike the client tool that did not ask for deferral.
  expect(eventsOfType(events, "model-request")[0]?.declaredTools).toEqual([
    "tool_search",
    "tool_describe",
    "tool_call",
    "water_plants",
  ]);
  // The model's own view: it called tool_call, and the log says so.
  const modelCalls = eventsOfType(events, "assistant-output")
    .flatMap((event) => event.items)
    .flatMap((item) => (item.type === "function_call" ? [item.name] : []));
  expect(modelCalls).toContain("tool_call");
  expect(modelCalls).not.toContain("paint_fence");
  expect(eventsOfType(events, "target-activity")[0]).toMatchObject({
    parentCallId: handed.callId,
    toolId: "client:garden:paint_fence",
    source: "client",
  });
});

test("a client call beside a native call: the native one runs, only the client one is handed back", async () => {
  const provider = scriptedProvider((request, index) => {
    if (index === 0)
      return [
        functionCall("native_1", "weather_forecast", { city: "Oslo" }),
        functionCall("client_1", "paint_fence", { note: "blue" }),
      ];
    const last = request.input.at(-1);
    return [assistantSays(`client said: ${last?.type === "function_call_output" ? last.output : "?"}`)];
  });
  harness = await createRunnerHarness({ provider, toolSearch: { mode: "directory" } });
  const first = await harness.say("mixed", "go", { clientTools: [PAINT] });
  expect(first.status).toBe("requires_action");
  expect(first.output).toEqual([functionCall("client_1", "paint_fence", { note: "blue" })]);
  expect(provider.requests).toHaveLength(1);
  const results = eventsOfType(await harness.events("mixed"), "tool-result");
  expect(results.map((event) => event.callId)).toEqual(["native_1"]);

  const second = await harness.runner.run({
    agentId: "main",
    sessionKey: "mixed",
    input: [{ type: "function_call_output", callId: "client_1", output: "blue done" }],
    clientTools: [PAINT],
  });
  expect(second).toMatchObject({ status: "completed", text: "client said: blue done" });
  const replayed = provider.requests[1]?.input ?? [];
  expect(replayed.filter((item) => item.type === "function_call_output")).toEqual([
    { type: "function_call_output", callId: "native_1", output: 'weather_forecast ok {"city":"Oslo"}' },
    { type: "function_call_output", callId: "client_1", output: "blue done" },
  ]);
});

test("directory mode refuses a client tool named like a plugin tool, naming both", async () => {
  harness = await createRunnerHarness({ toolSearch: { mode: "directory" } });
  const result = await harness.say("clash", "target=weather_forecast", {
    clientTools: [clientTool("weather_forecast", "A client's own forecast.")],
  });
  expect(result.status).toBe("failed");
  expect(result.error?.message).toContain("weather_forecast");
  expect(result.error?.message).toMatch(/client/u);
  expect(harness.mockBodies()).toHaveLength(0);
  expect(eventsOfType(await harness.events("clash"), "run-summary")[0]?.status).toBe("failed");
});

test("catalogs belong to one run: concurrent runs never see each other's client tools", async () => {
  const tools = { a: "paint_fence", b: "water_plants" } as const;
  const sessionOf = (request: ProviderRequest): "a" | "b" => {
    const first = request.input[0];
    return first?.type === "message" && first.text.includes("session b") ? "b" : "a";
  };
  let arrived = 0;
  let release: () => void = () => {};
  const bothInFlight = new Promise<void>((resolve) => {
    release = resolve;
  });
  const provider = scriptedProvider(async (request) => {
    const session = sessionOf(request);
    const other = session === "a" ? tools.b : tools.a;
    if (request.input.length === 1) {
      arrived += 1;
      if (arrived === 2) release();
      await bothInFlight; // both runs now hold their catalogs at the same time
      return [
        functionCall(`search_${session}`, "tool_search", { query: other }),
        functionCall(`call_${session}`, "tool_call", { id: `client:client:${other}`, args: { note: "x" } }),
        functionCall(`direct_${session}`, other, { note: "x" }),
      ];
    }
    return [assistantSays(`done ${session}`)];
  });
  harness = await createRunnerHarness({ provider, toolSearch: { mode: "directory" } });
  const [runA, runB] = await Promise.all([
    harness.say("session-a", "session a", { clientTools: [clientTool(tools.a, "Paint the garden fence.")] }),
    harness.say("session-b", "session b", { clientTools: [clientTool(tools.b, "Water the house plants.")] }),
  ]);
  expect([runA.status, runB.status]).toEqual(["completed", "completed"]);

  for (const [session, own, other] of [
    ["a", tools.a, tools.b],
    ["b", tools.b, tools.a],
  ] as const) {
    const requests = provider.requests.filter((request) => sessionOf(request) === session);
    for (const request of requests) {
      const declared = request.tools.map((tool) => tool.name);
      expect(declared).toContain(own);
      expect(declared).not.toContain(other);
      expect(request.instructions).not.toContain(other);
    }
    const events = await harness.events(`session-${session}`);
    const results = eventsOfType(events, "tool-result");
    // The search for the other run's tool finds nothing: no candidate and no suggested catalog word names it
    // (the answer only repeats the query word the model typed).
    const search = JSON.parse(String(results.find((event) => event.callId === `search_${session}`)?.output));
    expect(JSON.stringify(search.results[0].candidates)).not.toContain(other);
    expect(search.results[0].noMatch.suggestions).not.toContain(other);
    expect(results.find((event) => event.callId === `call_${session}`)?.isError).toBe(true);
    expect(results.find((event) => event.callId === `direct_${session}`)?.isError).toBe(true);
    expect(eventsOfType(events, "target-activity")).toHaveLength(0);
    expect(eventsOfType(events, "run-summary")[0]?.telemetry).toMatchObject({
      catalogSize: 4,
      sources: { native: 3, mcp: 0, client: 1 },
    });
  }
});

test("client tools of one run are gone in the next run of the same session", async () => {
  harness = await createRunnerHarness({ toolSearch: { mode: "directory" } });
  await harness.say("gone", "hello", { clientTools: [PAINT] });
  const result = await harness.say("gone", "target=paint_fence");
  expect(result.status).toBe("completed");
  expect(result.text).toBe("mock: tool_search found no tool for paint_fence.");
  const requests = eventsOfType(await harness.events("gone"), "model-request");
  expect(requests[0]?.declaredTools).toContain("paint_fence");
  expect(requests.at(-1)?.declaredTools).not.toContain("paint_fence");
});
