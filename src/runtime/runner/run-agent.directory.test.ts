import { afterEach, expect, test } from "vitest";
import { summarizeSession } from "../sessions/index.js";
import {
  assistantSays,
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

test("in directory mode an exact, unique hidden name is resolved and executed, and the log attributes it", async () => {
  const provider = scriptedProvider((_request, index) =>
    index === 0
      ? [functionCall("direct_1", "weather_forecast", { city: "Oslo" })]
      : [assistantSays("It is sunny.")],
  );
  harness = await createRunnerHarness({ provider, toolSearch: { mode: "directory" } });
  const result = await harness.say("dir", "weather in Oslo?");
  expect(result).toMatchObject({ status: "completed", text: "It is sunny." });

  // The hidden tool is in the prompt directory, not among the declared tools.
  const [first] = provider.requests;
  expect(first?.tools.map((tool) => tool.name)).toEqual(["tool_search", "tool_describe", "tool_call"]);
  expect(first?.instructions).toContain("### Deferred Tool Schemas");
  expect(first?.instructions).toContain("- weather_forecast (weather)");
  expect(first?.instructions).toContain("may be called directly by that name");

  const second = provider.requests[1]?.input ?? [];
  expect(second.at(-1)).toEqual({
    type: "function_call_output",
    callId: "direct_1",
    output: 'weather_forecast ok {"city":"Oslo"}',
  });

  const events = await harness.events("dir");
  const [toolResult] = eventsOfType(events, "tool-result");
  expect(toolResult).toMatchObject({
    callId: "direct_1",
    name: "weather_forecast",
    toolId: "native:weather:weather_forecast",
    source: "native",
    isError: false,
  });
  const answers = summarizeSession(events);
  expect(answers).toMatchObject({ schemasDeclaredUpFront: 3, searches: 0, calls: 0, directCalls: 1 });
  expect(answers.finalTool).toEqual({
    id: "native:weather:weather_forecast",
    name: "weather_forecast",
    source: "native",
  });
});

const NOT_RESOLVED = [
  ["a prefix", "weather"],
  ["a longer prefix", "weather_fore"],
  ["the full id", "native:weather:weather_forecast"],
  ["a blank", ""],
  ["a space", " "],
  ["leading whitespace", " weather_forecast"],
  ["trailing whitespace", "weather_forecast "],
  ["other case", "Weather_Forecast"],
  ["a suffix", "forecast"],
] as const;

test("in directory mode a prefix, a full id, a blank and near misses resolve to nothing", async () => {
  const provider = scriptedProvider((_request, index) =>
    index === 0
      ? NOT_RESOLVED.map(([, name], position) => functionCall(`probe_${position}`, name, { city: "Oslo" }))
      : [assistantSays("done")],
  );
  harness = await createRunnerHarness({ provider, toolSearch: { mode: "directory" } });
  const result = await harness.say("probes", "go");
  expect(result.status).toBe("completed");

  const events = await harness.events("probes");
  const results = eventsOfType(events, "tool-result");
  expect(results).toHaveLength(NOT_RESOLVED.length);
  NOT_RESOLVED.forEach(([label, name], position) => {
    const logged = results.find((event) => event.callId === `probe_${position}`);
    expect(logged, label).toMatchObject({ name, isError: true });
    expect(logged?.output, label).toMatch(/^Unknown tool /u);
    expect(logged?.toolId, label).toBeUndefined();
  });
  // Nothing ran: no output of the real tool anywhere in the log.
  expect(JSON.stringify(events)).not.toContain("weather_forecast ok");
  expect(summarizeSession(events).finalTool).toBeUndefined();
});

test.each([
  ["tools mode", { toolSearch: { mode: "tools" } }],
  ["directory mode under the copilot harness", { toolSearch: { mode: "directory" }, harness: "copilot" }],
] as const)("in %s a hidden name is not callable directly", async (_label, setup) => {
  const provider = scriptedProvider((_request, index) =>
    index === 0 ? [functionCall("hidden", "weather_forecast", { city: "Oslo" })] : [assistantSays("ok")],
  );
  harness = await createRunnerHarness({
    provider,
    toolSearch: setup.toolSearch,
    ...("harness" in setup ? { agentDefaults: { harness: setup.harness } } : {}),
  });
  await harness.say("hidden", "go");
  const [toolResult] = eventsOfType(await harness.events("hidden"), "tool-result");
  expect(toolResult).toMatchObject({ isError: true });
  expect(toolResult?.output).toMatch(
    /^Unknown tool "weather_forecast"\. Deferred tools are reached through/u,
  );
  expect(provider.requests[0]?.instructions).not.toContain("may be called directly");
});

test("a directory-mode direct call passes the plugin hooks like any other call", async () => {
  const provider = scriptedProvider((_request, index) =>
    index === 0 ? [functionCall("mail", "email_send", { to: "boss@example.com" })] : [assistantSays("ok")],
  );
  harness = await createRunnerHarness({
    provider,
    toolSearch: { mode: "directory" },
    plugins: [
      {
        id: "weather",
        tools: [
          {
            name: "email_send",
            description: "Send an email message to one recipient.",
            parameters: { type: "object", properties: { to: { type: "string" } } },
          },
        ],
        hooks: `api.on("before_tool_call", (event) => event.toolName === "email_send" ? { block: "Mail is off today." } : undefined);`,
      },
    ],
  });
  await harness.say("blocked-direct", "go");
  const [toolResult] = eventsOfType(await harness.events("blocked-direct"), "tool-result");
  expect(toolResult).toMatchObject({
    name: "email_send",
    isError: true,
    toolId: "native:weather:email_send",
  });
  expect(toolResult?.output).toContain("Mail is off today.");
  expect(toolResult?.output).not.toContain("email_send ok");
});
