import { afterEach, describe, expect, it } from "vitest";
import type { ProviderRequest } from "../providers/index.js";
import { estimateRequestTokens } from "./fit-history.js";
import {
  assistantSays,
  clientTool,
  createRunnerHarness,
  eventsOfType,
  type RunnerHarness,
  scriptedProvider,
  type TestPluginSpec,
  userSays,
  WEATHER_TOOLS,
} from "./runner.test-support.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const PAINT = clientTool("paint_fence", "Paint the garden fence in a colour.");

/** The estimate of what a provider request really carried. */
function estimateOf(request: ProviderRequest | undefined): number {
  if (request === undefined) throw new Error("no provider request");
  return estimateRequestTokens({
    systemPrompt: request.instructions,
    tools: request.tools,
    items: request.input,
  });
}

describe("Runner.countInputTokens", () => {
  it.each(["tools", "directory"] as const)(
    "%s mode: the estimate of the very request a new session's run sends (prompt, directory, tools, input)",
    async (mode) => {
      const provider = scriptedProvider(() => [assistantSays("ok")]);
      harness = await createRunnerHarness({ provider, toolSearch: { mode } });
      const input = [userSays("paint the fence, then tell me the weather in Oslo")];
      const request = { input, instructions: "Be brief.", clientTools: [PAINT] };
      await harness.runner.run({ agentId: "main", sessionKey: `count-${mode}`, ...request });
      const counted = await harness.runner.countInputTokens?.({ agentId: "main", ...request });
      expect(counted).toBe(estimateOf(provider.requests[0]));
      // The prompt and the declared tools are in it, not the input alone.
      expect(counted).toBeGreaterThan(
        estimateRequestTokens({ systemPrompt: "", tools: [], items: input }) + 100,
      );
      // More client text, more tokens.
      const longer = await harness.runner.countInputTokens?.({
        agentId: "main",
        input: [...input, assistantSays("done"), userSays("x".repeat(3000))],
      });
      expect(longer).toBeGreaterThan((counted ?? 0) + 900);
    },
  );

  it("Code Mode: the estimate of the very request a run sends (exec and wait, declared without a sandbox)", async () => {
    const provider = scriptedProvider(() => [assistantSays("ok")]);
    harness = await createRunnerHarness({ provider, toolSearch: { mode: "tools" } });
    harness.config.codeMode = { enabled: true, timeoutMs: 5_000 };
    const request = { input: [userSays("paint the fence")], clientTools: [PAINT] };
    await harness.runner.run({ agentId: "main", sessionKey: "count-code-mode", ...request });
    // The client's tool is in the catalog a cell searches, not declared.
    expect(provider.requests[0]?.tools.map((tool) => tool.name)).toEqual(["exec", "wait"]);
    const counted = await harness.runner.countInputTokens?.({ agentId: "main", ...request });
    expect(counted).toBe(estimateOf(provider.requests[0]));
  });

  it("writes nothing to any session and sends nothing to the provider", async () => {
    const provider = scriptedProvider(() => [assistantSays("ok")]);
    harness = await createRunnerHarness({ provider });
    await harness.runner.countInputTokens?.({ agentId: "main", input: [userSays("hi")] });
    expect(provider.requests).toHaveLength(0);
    expect(await harness.sessions.list()).toEqual([]);
  });

  it("runs no before_prompt hook: the count is the surface before any hook narrows it", async () => {
    const hooked: TestPluginSpec = {
      id: "weather",
      tools: WEATHER_TOOLS,
      hooks: `
  api.on("before_prompt", (event) => {
    if (event.input.includes("only-weather")) return { toolsAllow: ["weather_forecast"] };
    return undefined;
  });`,
    };
    const provider = scriptedProvider(() => [assistantSays("ok")]);
    harness = await createRunnerHarness({ provider, toolSearch: { mode: "tools" }, plugins: [hooked] });
    await harness.say("narrowed", "only-weather");
    await harness.say("whole", "full-weather");
    const [narrowed, whole] = provider.requests;
    expect(narrowed?.instructions.length).toBeLessThan(whole?.instructions.length ?? 0);
    const counted = await harness.runner.countInputTokens?.({
      agentId: "main",
      input: [userSays("only-weather")],
    });
    // Same byte length of input: the count is the whole surface's, not the narrowed run's.
    expect(counted).toBe(estimateOf(whole));
    expect(counted).not.toBe(estimateOf(narrowed));
  });

  it("a client tool named like an agent tool is refused as a run would refuse it", async () => {
    harness = await createRunnerHarness({
      provider: scriptedProvider(() => []),
      toolSearch: { mode: "directory" },
    });
    await expect(
      harness.runner.countInputTokens?.({
        agentId: "main",
        input: [userSays("hi")],
        clientTools: [clientTool("weather_forecast", "A clash.")],
      }),
    ).rejects.toMatchObject({ code: "NAME_CONFLICT" });
  });
});

describe("RunRequest.omittedHostedTools", () => {
  it("is noted on the turn's user-input line of the session log, and not sent to the provider", async () => {
    const provider = scriptedProvider(() => [assistantSays("ok")]);
    harness = await createRunnerHarness({ provider });
    const omittedHostedTools = ["web_search_20250305"];
    await harness.say("hosted", "search the web", { omittedHostedTools });
    await harness.say("hosted", "again");
    const inputs = eventsOfType(await harness.events("hosted"), "user-input");
    expect(inputs[0]?.omittedHostedTools).toEqual(omittedHostedTools);
    expect(inputs[1]).not.toHaveProperty("omittedHostedTools");
    expect(JSON.stringify(provider.requests)).not.toContain("web_search");
  });
});
