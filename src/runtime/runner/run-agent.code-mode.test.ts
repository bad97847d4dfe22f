import { afterEach, describe, expect, it } from "vitest";
import type { ConversationItem } from "../providers/index.js";
import {
  createRunnerHarness,
  eventsOfType,
  type RunnerHarness,
  scriptedProvider,
} from "./runner.test-support.js";

const CELL = `
const hits = await tools.search("weather forecast for a city", { limit: 3 });
const spec = await tools.describe(hits[0].id);
const result = await tools.call(spec.id, { city: "Lisbon" });
return { id: spec.id, text: result.result.content[0].text };
`;

describe("a run with Code Mode on", () => {
  let harness: RunnerHarness | undefined;
  afterEach(async () => {
    await harness?.close();
  });

  it("declares exec and wait instead of the controls, and a cell searches, describes and calls a plugin tool", async () => {
    const provider = scriptedProvider((request, index): ConversationItem[] => {
      if (index === 0)
        return [
          {
            type: "function_call",
            callId: "call_exec",
            name: "exec",
            arguments: JSON.stringify({ code: CELL }),
          },
        ];
      const output = request.input.find((item) => item.type === "function_call_output");
      return [
        {
          type: "message",
          role: "assistant",
          text: `cell said: ${output?.type === "function_call_output" ? output.output : ""}`,
        },
      ];
    });
    harness = await createRunnerHarness({ provider });
    harness.config.codeMode = { enabled: true, timeoutMs: 10_000 };
    const result = await harness.say("code-mode", "What is the weather in Lisbon?");

    expect(result.status).toBe("completed");
    const declared = provider.requests[0]?.tools.map((tool) => tool.name) ?? [];
    expect(declared).toContain("exec");
    expect(declared).toContain("wait");
    expect(declared).not.toContain("tool_search");
    expect(declared).not.toContain("weather_forecast");
    expect(provider.requests[0]?.tools.find((tool) => tool.name === "exec")?.description).toContain(
      "native:weather:weather_forecast",
    );
    expect(result.text).toContain("weather_forecast ok");
    expect(result.text).toContain("Lisbon");

    const activity = eventsOfType(await harness.events("code-mode"), "target-activity");
    expect(activity.map((event) => [event.toolId, event.parentCallId])).toEqual([
      ["native:weather:weather_forecast", "call_exec"],
    ]);
  }, 60_000);

  it("runs the mock provider's Code Mode flow end to end: one exec cell reaches the plugin tool", async () => {
    harness = await createRunnerHarness();
    harness.config.codeMode = { enabled: true };
    const result = await harness.say("code-mode-mock", "code mode qa check target=weather_forecast");
    expect(result.status).toBe("completed");
    expect(result.text).toContain('weather_forecast ok {"city":"qa"}');
    const requests = harness.mockBodies();
    const first = requests[0] as { tools?: Array<{ name?: string }> } | undefined;
    expect(first?.tools?.map((tool) => tool.name)).toEqual(expect.arrayContaining(["exec", "wait"]));
    const results = eventsOfType(await harness.events("code-mode-mock"), "tool-result");
    expect(results.map((event) => event.name)).toEqual(["exec"]);
  }, 60_000);
});
