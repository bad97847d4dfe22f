import { afterEach, describe, expect, test } from "vitest";
import {
  createRunnerHarness,
  eventsOfType,
  type RunnerHarness,
  WEATHER_PLUGIN,
} from "./runner.test-support.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type MessagesBody = {
  system?: unknown;
  tools?: Array<{ name: string; cache_control?: unknown }>;
  messages?: Array<{ role: string; content: Array<Record<string, unknown>> }>;
};

describe("a run over anthropic-messages (the real provider client against the mock's /v1/messages)", () => {
  test("sends a byte-identical cached prefix on every request and logs the cache reads", async () => {
    harness = await createRunnerHarness({
      api: "anthropic-messages",
      toolSearch: { enabled: true, mode: "tools" },
    });
    const result = await harness.say("cached", "tool search qa check target=weather_forecast");
    expect(result.status).toBe("completed");
    expect(result.text).toContain("weather_forecast ok");

    const recorded = harness.mock?.requests() ?? [];
    // search, call, answer: a multi-turn run.
    expect(recorded.map((request) => request.path)).toEqual(["/v1/messages", "/v1/messages", "/v1/messages"]);
    const bodies = recorded.map((request) => JSON.parse(request.body) as MessagesBody);
    const [first] = bodies;
    expect(first?.system).toEqual([
      {
        type: "text",
        text: expect.stringContaining("### Deferred Tool Schemas"),
        cache_control: { type: "ephemeral" },
      },
    ]);
    expect(first?.tools?.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(first?.tools?.slice(0, -1).every((tool) => tool.cache_control === undefined)).toBe(true);
    // The prefix (tools, then the system block) is the same bytes in every raw body the mock received.
    const prefix = `"system":${JSON.stringify(first?.system)},"tools":${JSON.stringify(first?.tools)}`;
    for (const request of recorded) expect(request.body).toContain(prefix);

    const usage = eventsOfType(await harness.events("cached"), "model-request").map((event) => event.usage);
    expect(usage).toHaveLength(3);
    expect(usage[0]?.cacheCreationInputTokens).toBeGreaterThan(0);
    expect(usage[0]?.cacheReadInputTokens).toBe(0);
    for (const later of usage.slice(1)) {
      expect(later?.cacheReadInputTokens).toBe(usage[0]?.cacheCreationInputTokens);
      expect(later?.cacheCreationInputTokens).toBe(0);
    }
    // The run's total adds them up; inputTokens include the cached tokens.
    expect(result.usage.cacheReadInputTokens).toBe(2 * (usage[0]?.cacheCreationInputTokens ?? 0));
    expect(result.usage.inputTokens).toBe(usage.reduce((sum, item) => sum + (item?.inputTokens ?? 0), 0));
    expect(result.usage.inputTokens).toBeGreaterThan(result.usage.cacheReadInputTokens ?? 0);

    // A later run on the same agent (another session) starts with a cache read of the same prefix.
    const later = await harness.say("cached-later", "tool search qa check target=weather_forecast");
    expect(later.status).toBe("completed");
    const [again] = eventsOfType(await harness.events("cached-later"), "model-request");
    expect(again?.usage?.cacheReadInputTokens).toBe(usage[0]?.cacheCreationInputTokens);
    expect(again?.usage?.cacheCreationInputTokens).toBe(0);
  });

  test("sends a failed tool's output back as a tool_result with is_error", async () => {
    harness = await createRunnerHarness({
      api: "anthropic-messages",
      toolSearch: false,
      plugins: [
        WEATHER_PLUGIN,
        {
          id: "fragile",
          tools: [
            {
              name: "flaky_lookup",
              description: "A lookup that fails.",
              body: 'return { content: [{ type: "text", text: "lookup is down" }], isError: true };',
            },
          ],
        },
      ],
    });
    const result = await harness.say("failing", "go target=flaky_lookup");
    expect(result.status).toBe("completed");
    const bodies = (harness.mock?.requests() ?? []).map(
      (request) => JSON.parse(request.body) as MessagesBody,
    );
    expect(bodies).toHaveLength(2);
    const call = bodies[1]?.messages?.at(-2)?.content[0];
    expect(call).toMatchObject({ type: "tool_use", name: "flaky_lookup" });
    expect(bodies[1]?.messages?.at(-1)).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: call?.id, content: "lookup is down", is_error: true }],
    });
    const [logged] = eventsOfType(await harness.events("failing"), "tool-result");
    expect(logged).toMatchObject({ name: "flaky_lookup", isError: true });
  });
});
