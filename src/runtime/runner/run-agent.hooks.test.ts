import { afterEach, expect, test } from "vitest";
import type { ToolSearchConfigValue } from "../../core/tool-search/index.js";
import {
  assistantSays,
  createRunnerHarness,
  eventsOfType,
  functionCall,
  promptOf,
  type RunnerHarness,
  scriptedProvider,
  type TestPluginSpec,
  WEATHER_TOOLS,
} from "./runner.test-support.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The weather tools, with hooks: narrowing on keywords, rewriting the forecast city, blocking email. */
const HOOKED_PLUGIN: TestPluginSpec = {
  id: "weather",
  tools: WEATHER_TOOLS,
  hooks: `
  api.on("before_prompt", (event) => {
    if (event.input.includes("only-weather")) return { toolsAllow: ["weather_forecast"] };
    if (event.input.includes("only-by-id"))
      return { toolsAllow: event.tools.filter((tool) => tool.id.endsWith(":calendar_add_event")).map((tool) => tool.id) };
    if (event.input.includes("broken-prompt-hook")) throw new Error("prompt hook bug");
    return undefined;
  });
  api.on("before_tool_call", (event) => {
    if (event.toolName === "weather_forecast") return { params: { city: "Rewritten for " + event.sessionKey } };
    if (event.toolName === "email_send") return { block: "Email is disabled by the mail plugin." };
    if (event.toolName === "calendar_add_event" && event.args.title === "explode") throw new Error("hook bug");
    return undefined;
  });`,
};

test("a before_prompt toolsAllow narrows the directory and the catalog of that run only", async () => {
  harness = await createRunnerHarness({ toolSearch: { mode: "tools" }, plugins: [HOOKED_PLUGIN] });
  const narrowed = await harness.say("narrow", "only-weather target=weather_forecast");
  expect(narrowed.status).toBe("completed");
  const narrowedPrompt = promptOf(harness.mockBodies()[0] ?? {});
  expect(narrowedPrompt).toContain("### Deferred Tool Schemas");
  expect(narrowedPrompt).toContain("- weather_forecast (weather)");
  expect(narrowedPrompt).not.toContain("email_send");
  expect(narrowedPrompt).not.toContain("calendar_add_event");
  const events = await harness.events("narrow");
  expect(eventsOfType(events, "run-summary")[0]?.telemetry).toMatchObject({ catalogSize: 1 });

  // A tool outside the allow list cannot be reached in such a run.
  const outside = await harness.say("narrow-2", "only-weather target=email_send");
  expect(outside.status).toBe("completed");
  const outsideEvents = await harness.events("narrow-2");
  expect(eventsOfType(outsideEvents, "target-activity").map((event) => event.name)).not.toContain(
    "email_send",
  );
  expect(JSON.stringify(outsideEvents)).not.toContain("email_send ok");

  // The next run without the keyword has the whole surface again.
  const count = harness.mockBodies().length;
  await harness.say("narrow", "target=calendar_add_event");
  const fullPrompt = promptOf(harness.mockBodies()[count] ?? {});
  expect(fullPrompt).toContain("- email_send (weather)");
  expect(fullPrompt).toContain("- calendar_add_event (weather)");
});

test("a before_prompt toolsAllow narrows the declared tools when Tool Search is off, by name or by id", async () => {
  harness = await createRunnerHarness({ toolSearch: false, plugins: [HOOKED_PLUGIN] });
  await harness.say("off-1", "only-weather please");
  await harness.say("off-2", "only-by-id please");
  await harness.say("off-3", "everything please");
  const declared = async (key: string) =>
    eventsOfType((await harness?.events(key)) ?? [], "model-request")[0];
  expect((await declared("off-1"))?.declaredTools).toEqual(["weather_forecast"]);
  expect((await declared("off-2"))?.declaredTools).toEqual(["calendar_add_event"]);
  expect((await declared("off-3"))?.declaredTools).toEqual([
    "weather_forecast",
    "calendar_add_event",
    "email_send",
  ]);
  expect((await declared("off-1"))?.declaredToolCount).toBe(1);
});

test("a before_prompt hook that throws is reported and narrows nothing", async () => {
  harness = await createRunnerHarness({ toolSearch: false, plugins: [HOOKED_PLUGIN] });
  const result = await harness.say("prompt-bug", "broken-prompt-hook");
  expect(result.status).toBe("completed");
  const [request] = eventsOfType(await harness.events("prompt-bug"), "model-request");
  expect(request?.declaredToolCount).toBe(3);
  expect(harness.logLines.some((line) => line.includes("plugin weather before_prompt failed"))).toBe(true);
});

test("a before_tool_call hook rewrites the arguments of a call made through tool_call", async () => {
  harness = await createRunnerHarness({ toolSearch: { mode: "tools" }, plugins: [HOOKED_PLUGIN] });
  const result = await harness.say("rewrite", "target=weather_forecast");
  expect(result.status).toBe("completed");
  expect(result.text).toContain('weather_forecast ok {"city":"Rewritten for rewrite"}');
  const [activity] = eventsOfType(await harness.events("rewrite"), "target-activity");
  expect(activity).toMatchObject({ name: "weather_forecast", isError: false });
  expect(activity?.arguments).toEqual({ city: "Rewritten for rewrite" });
});

test.each<[string, ToolSearchConfigValue]>([
  ["through tool_call", { mode: "tools" }],
  ["directly with Tool Search off", false],
])("a before_tool_call hook blocks a call %s, and the tool never runs", async (_label, toolSearch) => {
  harness = await createRunnerHarness({ toolSearch, plugins: [HOOKED_PLUGIN] });
  const result = await harness.say("block", "target=email_send");
  expect(result.status).toBe("completed");
  const events = await harness.events("block");
  const results = eventsOfType(events, "tool-result");
  const blocked = results.at(-1);
  expect(blocked?.isError).toBe(true);
  expect(blocked?.output).toContain("Email is disabled by the mail plugin.");
  expect(JSON.stringify(events)).not.toContain("email_send ok");
  if (toolSearch !== false) {
    const [activity] = eventsOfType(events, "target-activity");
    expect(activity).toMatchObject({ name: "email_send", isError: true });
  }
});

test("a before_tool_call hook rewrites a direct call when Tool Search is off", async () => {
  harness = await createRunnerHarness({ toolSearch: false, plugins: [HOOKED_PLUGIN] });
  const result = await harness.say("rewrite-direct", "target=weather_forecast");
  expect(result.text).toContain('weather_forecast ok {"city":"Rewritten for rewrite-direct"}');
});

test("a before_tool_call hook that throws blocks the call (fail closed) and is reported", async () => {
  const provider = scriptedProvider((_request, index) =>
    index === 0 ? [functionCall("c1", "calendar_add_event", { title: "explode" })] : [assistantSays("ok")],
  );
  harness = await createRunnerHarness({ provider, toolSearch: false, plugins: [HOOKED_PLUGIN] });
  await harness.say("hook-bug", "go");
  const [toolResult] = eventsOfType(await harness.events("hook-bug"), "tool-result");
  expect(toolResult?.isError).toBe(true);
  expect(toolResult?.output).toContain('hook of plugin "weather" failed');
  expect(toolResult?.output).not.toContain("calendar_add_event ok");
  expect(harness.logLines.some((line) => line.startsWith("plugin weather hook failed"))).toBe(true);
});
