import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/core/catalog/index.js";
import type { ToolsiftConfig } from "../../src/runtime/config/index.js";
import type { ProviderRequest } from "../../src/runtime/providers/index.js";
import type { SessionEvent } from "../../src/runtime/sessions/index.js";
import { cityTool, liveRunner } from "./live-runner.test-support.js";

const apiKey = process.env.ANTHROPIC_API_KEY;
const model = process.env.TOOLSIFT_LIVE_ANTHROPIC_MODEL ?? "claude-haiku-4-5";
const SKIP_REASON = "ANTHROPIC_API_KEY is not set: the Anthropic live test runs only against the real API.";
const DISTRACTORS = 48;

if (!apiKey) console.log(`live test skipped: ${SKIP_REASON}`);

function liveTools(receipts: Set<string>): ToolDefinition[] {
  const tools = [
    cityTool(
      "get_harbor_tide_receipt",
      "Look up today's harbor tide table for a coastal city and return a receipt.",
      async () => {
        const receipt = `TIDE-${randomUUID().slice(0, 8)}`;
        receipts.add(receipt);
        return { content: [{ type: "text", text: `Tide table ready. Receipt: ${receipt}` }] };
      },
    ),
  ];
  for (let index = 0; index < DISTRACTORS; index += 1)
    tools.push(
      cityTool(
        `distractor_tool_${index}`,
        `Distractor ${index}: manage inventory record category ${index} for a warehouse in a city.`,
        async () => ({ content: [{ type: "text", text: "distractor" }] }),
      ),
    );
  return tools;
}

describe.skipIf(!apiKey)(`live Tool Search against Anthropic ${model}`, () => {
  let stateDir = "";

  beforeAll(async () => {
    stateDir = await mkdtemp(join(tmpdir(), "toolsift-live-anthropic-"));
  });
  afterAll(async () => {
    await rm(stateDir, { recursive: true, force: true });
  });

  it("reaches the target through the controls, streams its text, and sends one prefix on every request", async () => {
    const receipts = new Set<string>();
    const requests: ProviderRequest[] = [];
    const config: ToolsiftConfig = {
      models: { providers: { anthropic: { api: "anthropic-messages", apiKey: apiKey ?? "" } } },
      agents: { defaults: { model: `anthropic/${model}` } },
      tools: { toolSearch: { enabled: true, mode: "tools" } },
    };
    const { runner, sessions } = liveRunner({ config, stateDir, tools: liveTools(receipts), requests });
    const deltas: string[] = [];
    const ask = (sessionKey: string) =>
      runner.run({
        agentId: "main",
        sessionKey,
        input: [
          {
            type: "message",
            role: "user",
            text: "What does today's harbor tide table for Lisbon say? Quote the receipt.",
          },
        ],
        onEvent: (event) => {
          if (event.type === "text-delta") deltas.push(event.delta);
        },
      });
    const result = await ask("live-anthropic-1");
    // A second run on the same agent: its first request can read the prefix the first run cached.
    const again = await ask("live-anthropic-2");
    await runner.close();

    const usage = async (sessionKey: string) =>
      (await sessions.read("main", sessionKey))
        .filter(
          (event): event is Extract<SessionEvent, { type: "model-request" }> =>
            event.type === "model-request",
        )
        .map((event) => event.usage);
    const figures = [...(await usage("live-anthropic-1")), ...(await usage("live-anthropic-2"))];
    console.table(figures);

    expect(result.status).toBe("completed");
    expect(again.status).toBe("completed");
    expect(receipts.size, "the target tool ran").toBeGreaterThan(0);
    expect([...receipts].some((receipt) => result.text.includes(receipt))).toBe(true);
    expect(deltas.join("")).toContain("TIDE-");
    expect(requests[0]?.tools.map((tool) => tool.name)).not.toContain("get_harbor_tide_receipt");
    for (const request of requests) {
      expect(request.instructions).toBe(requests[0]?.instructions);
      expect(request.tools).toEqual(requests[0]?.tools);
    }
    // Anthropic reports cache reads and writes on every answer (0 below its minimum cacheable length).
    for (const item of figures) {
      expect(item?.cacheReadInputTokens).toEqual(expect.any(Number));
      expect(item?.cacheCreationInputTokens).toEqual(expect.any(Number));
    }
  });
});

describe.skipIf(Boolean(apiKey))("live Tool Search against Anthropic (skipped)", () => {
  it.skip(SKIP_REASON, () => {});
});
