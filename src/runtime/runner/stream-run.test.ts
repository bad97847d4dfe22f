import { afterEach, describe, expect, test } from "vitest";
import type { RunEvent } from "../run-surface/index.js";
import { createRunSignal } from "./run-signal.js";
import {
  assistantSays,
  clientTool,
  createRunnerHarness,
  eventsOfType,
  functionCall,
  type RunnerHarness,
  scriptedProvider,
} from "./runner.test-support.js";
import { startRunStream, streamRun } from "./stream-run.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const userSays = (text: string) => [{ type: "message" as const, role: "user" as const, text }];

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const seen: RunEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("a run as its events", () => {
  test("a tools-mode run emits start, searches, the target call, the answer's text and finish, in order", async () => {
    harness = await createRunnerHarness({ toolSearch: { enabled: true, mode: "tools" } });
    const events = await collect(
      streamRun(harness.runner, {
        agentId: "main",
        sessionKey: "events",
        input: userSays("tool search qa check target=weather_forecast"),
      }),
    );
    // The mock streams the answer a word at a time: one or more text deltas, before the last turn finishes.
    const types = events
      .map((event) => event.type)
      .filter((type, index, all) => type !== "text-delta" || all[index - 1] !== "text-delta");
    expect(types).toEqual([
      "run-start",
      "model-request-finish",
      "tool-call-start",
      "tool-call-finish",
      "search-finish",
      "model-request-finish",
      "tool-call-start",
      "tool-call-finish",
      "text-delta",
      "model-request-finish",
      "run-finish",
    ]);
    expect(events.filter((event) => event.type === "text-delta").length).toBeGreaterThan(1);
    const finish = events.at(-1) as Extract<RunEvent, { type: "run-finish" }>;
    const result = finish.result;
    expect(result.status).toBe("completed");
    expect(events[0]).toEqual({
      type: "run-start",
      runId: result.runId,
      agentId: "main",
      sessionKey: "events",
      model: result.model,
    });
    const search = events.find((event) => event.type === "search-finish");
    expect(search).toMatchObject({ queries: [expect.any(String)] });
    expect((search as Extract<RunEvent, { type: "search-finish" }>).hits).toBeGreaterThan(0);
    expect(events.filter((event) => event.type === "tool-call-finish")[1]).toMatchObject({
      name: "tool_call",
      isError: false,
    });
    // The text deltas are the answer, whole, and the result is what the log summarised.
    const text = events.flatMap((event) => (event.type === "text-delta" ? [event.delta] : [])).join("");
    expect(text).toBe(result.text);
    const logged = await harness.events("events");
    expect(eventsOfType(logged, "run-summary")[0]).toMatchObject({
      runId: result.runId,
      status: "completed",
    });
    // Each finished call's output is what the log holds for it.
    const finished = events.filter((event) => event.type === "tool-call-finish");
    expect(finished.map((event) => event.output)).toEqual(
      eventsOfType(logged, "tool-result").map((event) => event.output),
    );
  });

  test("a provider that streams gives its text pieces as they arrive, each once, before its turn finishes", async () => {
    const provider = scriptedProvider((request) => {
      for (const piece of ["Hel", "lo, ", "world"]) request.onTextDelta?.(piece);
      return [assistantSays("Hello, world")];
    });
    harness = await createRunnerHarness({ provider, toolSearch: false });
    const events = await collect(
      streamRun(harness.runner, { agentId: "main", sessionKey: "deltas", input: userSays("greet me") }),
    );
    expect(events.map((event) => event.type)).toEqual([
      "run-start",
      "text-delta",
      "text-delta",
      "text-delta",
      "model-request-finish",
      "run-finish",
    ]);
    expect(events.filter((event) => event.type === "text-delta")).toEqual(
      ["Hel", "lo, ", "world"].map((delta) => ({
        type: "text-delta",
        runId: expect.any(String),
        turn: 1,
        delta,
      })),
    );
    expect(events.at(-1)).toMatchObject({ result: { text: "Hello, world", status: "completed" } });
    // Without a listener the provider is not asked to stream.
    await harness.say("plain", "greet me");
    expect(provider.requests.at(-1)?.onTextDelta).toBeUndefined();
  });

  test("a client tool call is handed off, and the run ends requires_action", async () => {
    const provider = scriptedProvider(() => [functionCall("call_client", "pick_color", { note: "blue" })]);
    harness = await createRunnerHarness({ provider, toolSearch: false });
    const events = await collect(
      streamRun(harness.runner, {
        agentId: "main",
        sessionKey: "handoff",
        input: userSays("pick a color"),
        clientTools: [clientTool("pick_color", "Pick a color for the user.")],
      }),
    );
    expect(events.map((event) => event.type)).toEqual([
      "run-start",
      "model-request-finish",
      "tool-call-start",
      "tool-call-finish",
      "tool-call-handoff",
      "run-finish",
    ]);
    expect(events[4]).toMatchObject({
      callId: "call_client",
      name: "pick_color",
      arguments: '{"note":"blue"}',
    });
    expect(events.at(-1)).toMatchObject({ result: { status: "requires_action" } });
  });

  test("a reader that stops early cancels the run: the pending provider request is aborted, the log says cancelled", async () => {
    let aborted: unknown;
    const provider = scriptedProvider((request, index) => {
      if (index === 0) return [functionCall("call_1", "tool_search", { query: "weather" })];
      // The next request hangs until the run's signal tells it the reader left.
      return new Promise((_, reject) => {
        request.signal?.addEventListener("abort", () => {
          aborted = request.signal?.reason;
          reject(request.signal?.reason);
        });
      });
    });
    harness = await createRunnerHarness({ provider, toolSearch: { enabled: true, mode: "tools" } });
    for await (const event of streamRun(harness.runner, {
      agentId: "main",
      sessionKey: "stop-early",
      input: userSays("weather please"),
    })) {
      if (event.type === "tool-call-finish") break;
    }
    // Whether the next request had started when the reader left depends on timing: if it had, it was aborted.
    expect(provider.requests.length).toBeLessThanOrEqual(2);
    if (provider.requests.length === 2)
      expect(String(aborted)).toMatch(/The stream's reader stopped reading/u);
    const summary = eventsOfType(await harness.events("stop-early"), "run-summary")[0];
    expect(summary).toMatchObject({ status: "failed" });
    expect(String(summary?.error)).toMatch(/^CANCELLED: The stream's reader stopped reading/u);
  });

  test("with the caller's one run signal, a reader that stops aborts that signal, and settled waits for the run", async () => {
    const provider = scriptedProvider((request) => {
      // The first request hangs until the run's signal aborts.
      return new Promise((_, reject) => {
        request.signal?.addEventListener("abort", () => reject(request.signal?.reason));
      });
    });
    harness = await createRunnerHarness({ provider, toolSearch: false });
    const run = createRunSignal();
    const stream = startRunStream(
      harness.runner,
      { agentId: "main", sessionKey: "one-signal", input: userSays("hello") },
      run,
    );
    const first = await stream.events.next();
    expect(first.value).toMatchObject({ type: "run-start" });
    let settled = false;
    void stream.settled.then(() => {
      settled = true;
    });
    expect(settled).toBe(false);
    await stream.events.return(undefined);
    expect(run.signal.aborted).toBe(true);
    expect(String(run.signal.reason)).toMatch(/The stream's reader stopped reading/u);
    await stream.settled;
    const summary = eventsOfType(await harness.events("one-signal"), "run-summary")[0];
    expect(String(summary?.error)).toMatch(/^CANCELLED: The stream's reader stopped reading/u);
  });
});
