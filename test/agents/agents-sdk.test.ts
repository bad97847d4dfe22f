// The OpenAI Agents SDK (`@openai/agents`, a root devDependency) as a library client of a real
// `toolsift gateway` over a real `toolsift mock-openai`: the gateway is its Responses model.
import { Agent, OpenAIResponsesModel, run, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type GatewayProcess,
  type MockProcess,
  mockCursor,
  mockRequests,
  startGateway,
  startMock,
  tempDir,
} from "./agents.test-support.js";

/** Agents SDK runs: a plugin tool reached by the gateway, and a run of a local tool the SDK runs itself. */
const SDK_TIMEOUT_MS = 60_000;

describe("OpenAI Agents SDK through toolsift gateway", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let mock: MockProcess;
  let gateway: GatewayProcess;
  let model: OpenAIResponsesModel;

  beforeAll(async () => {
    // The SDK would export traces to OpenAI's platform; nothing leaves the machine here.
    setTracingDisabled(true);
    dir = await tempDir("agents-sdk");
    mock = await startMock();
    gateway = await startGateway(mock, dir.path);
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: "unused-on-loopback", maxRetries: 0 });
    model = new OpenAIResponsesModel(client, "toolsift");
  }, SDK_TIMEOUT_MS);

  afterAll(async () => {
    await gateway?.stop();
    await mock?.stop();
    await dir?.remove();
  });

  it(
    "reaches a plugin tool that the gateway runs",
    async () => {
      const after = await mockCursor(mock);
      const agent = new Agent({ name: "weather", instructions: "Answer briefly.", model });
      const result = await run(agent, "What is the weather in Berlin tomorrow? target=get_forecast");
      expect(result.finalOutput).toContain("Forecast for qa, 1 day(s) ahead");
      // The gateway searched for it and called it on the model's behalf.
      const requests = await mockRequests(mock, after);
      const last = JSON.stringify(requests.at(-1)?.body.input);
      expect(last).toContain('"name":"tool_search"');
      expect(last).toContain("get_forecast");
    },
    SDK_TIMEOUT_MS,
  );

  it(
    "hands a local function tool back to the SDK, which runs it and sends the output (a client tool round trip)",
    async () => {
      const calls: string[] = [];
      const makeMarker = tool({
        name: "make_marker",
        description: "Make a marker string for a label.",
        parameters: z.object({ label: z.string() }),
        execute: async ({ label }) => {
          calls.push(label);
          return `sdk-marker-${label}-${calls.length}`;
        },
      });
      const agent = new Agent({
        name: "marker",
        instructions: "Use your tools.",
        model,
        tools: [makeMarker],
      });
      const result = await run(agent, "Make a marker. target=make_marker");
      expect(calls).toEqual(["qa"]);
      expect(result.finalOutput).toBe("Done. sdk-marker-qa-1");
    },
    SDK_TIMEOUT_MS,
  );

  it(
    "streams a run: text deltas arrive and join to the final output",
    async () => {
      const agent = new Agent({ name: "weather", instructions: "Answer briefly.", model });
      const stream = await run(agent, "Conditions in Berlin right now? target=get_current_conditions", {
        stream: true,
      });
      const deltas: string[] = [];
      for await (const event of stream)
        if (event.type === "raw_model_stream_event" && event.data.type === "output_text_delta")
          deltas.push(event.data.delta);
      await stream.completed;
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join("")).toBe(stream.finalOutput);
      expect(stream.finalOutput).toMatch(/^Done\. /u);
    },
    SDK_TIMEOUT_MS,
  );
});
