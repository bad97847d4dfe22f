import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/core/catalog/index.js";
import type { ToolSearchConfigValue } from "../../src/core/tool-search/index.js";
import type { ToolsiftConfig } from "../../src/runtime/config/index.js";
import type { ProviderRequest } from "../../src/runtime/providers/index.js";
import { cityTool, liveRunner } from "./live-runner.test-support.js";

const apiKey = process.env.OPENAI_API_KEY;
const model = process.env.TOOLSIFT_LIVE_MODEL ?? "gpt-5.4-mini";
const SKIP_REASON = "OPENAI_API_KEY is not set: the live test runs only against a real provider.";

if (!apiKey) console.log(`live test skipped: ${SKIP_REASON}`);

type Lane = { name: string; toolSearch: ToolSearchConfigValue | undefined; distractors: number };
const LANES: Lane[] = (["direct", "default", "tools", "directory"] as const).flatMap((name) =>
  [0, 32].map((distractors) => ({
    name,
    distractors,
    toolSearch: name === "direct" ? false : name === "default" ? undefined : { mode: name },
  })),
);

type LaneFigures = {
  lane: string;
  distractors: number;
  requestBytes: number;
  firstRequestToolBytes: number;
  firstRequestTools: number;
  controlCalls: number;
  assistantTurns: number;
  msToTarget: number | undefined;
  receiptSeen: boolean;
};

function liveTools(
  receipts: Set<string>,
  executedAt: { at?: number },
  distractors: number,
): ToolDefinition[] {
  const tools: ToolDefinition[] = [
    cityTool(
      "get_harbor_tide_receipt",
      "Look up today's harbor tide table for a coastal city and return a receipt.",
      async () => {
        executedAt.at ??= Date.now();
        const receipt = `TIDE-${randomUUID().slice(0, 8)}`;
        receipts.add(receipt);
        return { content: [{ type: "text", text: `Tide table ready. Receipt: ${receipt}` }] };
      },
    ),
    cityTool(
      "decoy_harbor_tide",
      "Look up harbor tides (deprecated decoy: must never be offered).",
      async () => ({
        content: [{ type: "text", text: "DECOY EXECUTED" }],
      }),
    ),
    {
      name: "reply_to_user",
      description: "Send the final answer to the user.",
      origin: { kind: "plugin", owner: "live" },
      catalogMode: "direct-only",
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      execute: async () => ({ content: [{ type: "text", text: "sent" }] }),
    },
  ];
  for (let index = 0; index < distractors; index += 1) {
    tools.push(
      cityTool(
        `distractor_tool_${index}`,
        `Distractor ${index}: manage inventory record category ${index} for a warehouse.`,
        async () => ({
          content: [{ type: "text", text: "distractor" }],
        }),
      ),
    );
  }
  return tools;
}

describe.skipIf(!apiKey)(`live Tool Search against ${model}`, () => {
  let stateDir = "";
  const figures: LaneFigures[] = [];

  beforeAll(async () => {
    stateDir = await mkdtemp(join(tmpdir(), "toolsift-live-"));
  });
  afterAll(async () => {
    console.table(figures);
    await rm(stateDir, { recursive: true, force: true });
  });

  for (const lane of LANES) {
    it(`${lane.name} lane with ${lane.distractors} distractors reaches the target`, async () => {
      const receipts = new Set<string>();
      const executedAt: { at?: number } = {};
      const requests: ProviderRequest[] = [];
      const config: ToolsiftConfig = {
        models: { providers: { openai: { api: "openai-responses", apiKey: apiKey ?? "" } } },
        agents: { defaults: { model: `openai/${model}` } },
        tools: {
          deny: ["decoy_*"],
          ...(lane.toolSearch === undefined ? {} : { toolSearch: lane.toolSearch }),
        },
      };
      const tools = liveTools(receipts, executedAt, lane.distractors);
      const { runner, sessions } = liveRunner({ config, stateDir, tools, requests });
      const started = Date.now();
      const sessionKey = `live-${lane.name}-${lane.distractors}`;
      const result = await runner.run({
        agentId: "main",
        sessionKey,
        input: [
          {
            type: "message",
            role: "user",
            text: "What does today's harbor tide table for Lisbon say? Quote the receipt.",
          },
        ],
      });
      const first = requests[0];
      const declared = (request: ProviderRequest | undefined) =>
        (request?.tools ?? []).map((tool) => tool.name);
      const events = await sessions.read("main", sessionKey);
      const receiptSeen = [...receipts].some((receipt) => result.text.includes(receipt));
      figures.push({
        lane: lane.name,
        distractors: lane.distractors,
        requestBytes: events.reduce(
          (sum, event) => sum + (event.type === "model-request" ? event.requestBytes : 0),
          0,
        ),
        firstRequestToolBytes: Buffer.byteLength(JSON.stringify(first?.tools ?? [])),
        firstRequestTools: first?.tools.length ?? 0,
        controlCalls: events.filter((event) => event.type === "tool-result" && event.name.startsWith("tool_"))
          .length,
        assistantTurns: requests.length,
        msToTarget: executedAt.at === undefined ? undefined : executedAt.at - started,
        receiptSeen,
      });

      expect(result.status).toBe("completed");
      expect(receipts.size, "the target tool ran").toBeGreaterThan(0);
      for (const request of requests) {
        expect(declared(request)).not.toContain("decoy_harbor_tide");
        expect(JSON.stringify(request)).not.toContain("decoy_harbor_tide");
        expect(declared(request)).toContain("reply_to_user");
      }
      expect(JSON.stringify(events)).not.toContain("decoy_harbor_tide");
      if (lane.name !== "direct") expect(declared(first)).not.toContain("get_harbor_tide_receipt");
      await runner.close();
    });
  }

  it("with 32 distractors, search lanes send fewer tools and tool bytes than direct", () => {
    const direct = figures.find((figure) => figure.lane === "direct" && figure.distractors === 32);
    for (const figure of figures.filter((item) => item.lane !== "direct" && item.distractors === 32)) {
      expect(figure.firstRequestTools).toBeLessThan(direct?.firstRequestTools ?? 0);
      expect(figure.firstRequestToolBytes).toBeLessThan(direct?.firstRequestToolBytes ?? 0);
    }
  });
});

describe.skipIf(Boolean(apiKey))("live Tool Search (skipped)", () => {
  it.skip(SKIP_REASON, () => {});
});
