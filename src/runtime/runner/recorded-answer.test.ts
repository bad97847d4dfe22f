import { afterEach, expect, test } from "vitest";
import type { RunEvent } from "../run-surface/index.js";
import {
  assistantSays,
  clientTool,
  createRunnerHarness,
  eventsOfType,
  type RunnerHarness,
  scriptedProvider,
  userSays,
} from "./runner.test-support.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const PAINT = clientTool("paint_fence", "Paint the garden fence in a colour.");

test("a run with no new input gives the last answer again: no provider request, nothing logged, same events", async () => {
  harness = await createRunnerHarness({ toolSearch: false });
  const first = await harness.say("repeat", "hello");
  expect(first.status).toBe("completed");
  const requests = harness.mockBodies().length;
  const eventsBefore = await harness.events("repeat");

  const told: RunEvent[] = [];
  const again = await harness.runner.run({
    agentId: "main",
    sessionKey: "repeat",
    input: [],
    onEvent: (event) => told.push(event),
  });
  expect(again).toMatchObject({
    runId: first.runId,
    status: "completed",
    output: first.output,
    text: first.text,
    model: first.model,
    usage: { inputTokens: 0, outputTokens: 0 },
  });
  expect(harness.mockBodies()).toHaveLength(requests);
  expect(await harness.events("repeat")).toEqual(eventsBefore);
  expect(told.map((event) => event.type)).toEqual([
    "run-start",
    "text-delta",
    "model-request-finish",
    "run-finish",
  ]);
  expect(told[1]).toMatchObject({ delta: first.text });
});

test("a repeated run that handed a client tool call over hands the same call over again", async () => {
  harness = await createRunnerHarness({ toolSearch: { mode: "tools" } });
  const first = await harness.say("handoff", "please target=paint_fence", { clientTools: [PAINT] });
  expect(first.status).toBe("requires_action");
  const [summary] = eventsOfType(await harness.events("handoff"), "run-summary");
  // The summary records the call as the client got it: the client tool's name, the model's call id.
  expect(summary?.handoffs).toEqual(
    first.output.filter((item) => item.type === "function_call").map(({ type: _type, ...call }) => call),
  );
  const told: RunEvent[] = [];
  const again = await harness.runner.run({
    agentId: "main",
    sessionKey: "handoff",
    input: [],
    clientTools: [PAINT],
    onEvent: (event) => told.push(event),
  });
  expect(again.status).toBe("requires_action");
  expect(again.output).toEqual(first.output);
  expect(told.filter((event) => event.type === "tool-call-handoff")).toEqual([
    expect.objectContaining({ name: "paint_fence", callId: summary?.handoffs?.[0]?.callId }),
  ]);
});

test("after a run that gave no answer, no new input runs again from the log without logging the input twice", async () => {
  const provider = scriptedProvider((_request, index) => {
    if (index === 0) throw new Error("provider down");
    return [assistantSays("second time lucky")];
  });
  harness = await createRunnerHarness({ provider, toolSearch: false });
  const failed = await harness.say("retry", "hello");
  expect(failed.status).toBe("failed");

  const again = await harness.runner.run({ agentId: "main", sessionKey: "retry", input: [] });
  expect(again.status).toBe("completed");
  expect(again.text).toBe("second time lucky");
  // The provider saw the user's message once, from the log.
  expect(provider.requests[1]?.input).toEqual([userSays("hello")]);
  const events = await harness.events("retry");
  expect(eventsOfType(events, "user-input")).toHaveLength(1);
  expect(eventsOfType(events, "run-summary").map((event) => event.status)).toEqual(["failed", "completed"]);
});
