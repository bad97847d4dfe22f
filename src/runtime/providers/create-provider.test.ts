import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import { createProvider } from "./create-provider.js";
import type { ProviderRequest, ProviderSettings } from "./types.js";

let mock: MockOpenAI;

beforeAll(async () => {
  mock = await startMockOpenAI();
});

afterAll(async () => {
  await mock.close();
});

const TOOLS: ProviderRequest["tools"] = [
  {
    name: "weather_now",
    description: "Current weather for a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    },
  },
  { name: "clock", description: "The time. ✓ ünïcödé", parameters: { type: "object", properties: {} } },
];

/** The request body the mock recorded last, parsed. */
function lastBody(): Record<string, unknown> {
  const last = mock.requests().at(-1);
  return JSON.parse(last?.body ?? "{}") as Record<string, unknown>;
}

describe.each<ProviderSettings["api"]>(["openai-responses", "openai-chat"])(
  "createProvider (%s) against the mock",
  (api) => {
    const provider = () => createProvider("mock", { api, baseUrl: mock.baseUrl });

    it("sends the tools, gets a function call with schema-built arguments, and reports usage and bytes", async () => {
      const response = await provider().complete({
        model: "mock-model",
        instructions: "You are a test.",
        input: [{ type: "message", role: "user", text: "please target=weather_now" }],
        tools: TOOLS,
      });
      const recorded = mock.requests().at(-1);
      expect(recorded?.path).toBe(api === "openai-responses" ? "/v1/responses" : "/v1/chat/completions");
      expect(response.requestBytes).toBe(recorded?.bytes);
      expect(response.requestBytes).toBe(Buffer.byteLength(recorded?.body ?? "", "utf8"));
      expect(response.output).toEqual([
        {
          type: "function_call",
          callId: `call_${recorded?.cursor}_1`,
          name: "weather_now",
          arguments: '{"city":"qa"}',
        },
      ]);
      expect(response.usage?.inputTokens).toBe(Math.ceil((recorded?.bytes ?? 0) / 4));
      expect(response.usage?.outputTokens).toBe(
        Math.ceil(("weather_now".length + '{"city":"qa"}'.length) / 4),
      );

      const body = lastBody();
      expect(body.model).toBe("mock-model");
      if (api === "openai-responses") {
        expect(body.instructions).toBe("You are a test.");
        expect(body.store).toBe(false);
        expect(body.input).toEqual([{ role: "user", content: "please target=weather_now" }]);
        expect(body.tools).toEqual(TOOLS.map((tool) => ({ type: "function", ...tool, strict: false })));
      } else {
        expect(body.messages).toEqual([
          { role: "system", content: "You are a test." },
          { role: "user", content: "please target=weather_now" },
        ]);
        expect(body.tools).toEqual(
          TOOLS.map((tool) => ({
            type: "function",
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        );
      }
    });

    it("sends the outputs back and reads the final answer", async () => {
      const response = await provider().complete({
        model: "mock-model",
        instructions: "",
        input: [
          { type: "message", role: "user", text: "target=weather_now and=clock" },
          { type: "function_call", callId: "c1", name: "weather_now", arguments: '{"city":"qa"}' },
          { type: "function_call", callId: "c2", name: "clock", arguments: "{}" },
          { type: "function_call_output", callId: "c1", output: "sunny" },
          { type: "function_call_output", callId: "c2", output: "noon" },
        ],
        tools: TOOLS,
        maxOutputTokens: 64,
      });
      expect(response.output).toEqual([{ type: "message", role: "assistant", text: "Done. sunny noon" }]);
      const body = lastBody();
      if (api === "openai-responses") {
        expect(body.max_output_tokens).toBe(64);
        expect(body.input).toEqual([
          { role: "user", content: "target=weather_now and=clock" },
          { type: "function_call", call_id: "c1", name: "weather_now", arguments: '{"city":"qa"}' },
          { type: "function_call", call_id: "c2", name: "clock", arguments: "{}" },
          { type: "function_call_output", call_id: "c1", output: "sunny" },
          { type: "function_call_output", call_id: "c2", output: "noon" },
        ]);
      } else {
        expect(body.max_tokens).toBe(64);
        expect(body.messages).toEqual([
          { role: "user", content: "target=weather_now and=clock" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "c1", type: "function", function: { name: "weather_now", arguments: '{"city":"qa"}' } },
              { id: "c2", type: "function", function: { name: "clock", arguments: "{}" } },
            ],
          },
          { role: "tool", tool_call_id: "c1", content: "sunny" },
          { role: "tool", tool_call_id: "c2", content: "noon" },
        ]);
      }
    });

    it("measures each of several concurrent requests on one provider separately", async () => {
      const shared = provider();
      const texts = ["short", `much longer ${"x".repeat(1_500)}`, `medium ${"y".repeat(500)}`];
      const before = mock.requests().length;
      const responses = await Promise.all(
        texts.map((text) =>
          shared.complete({
            model: "m",
            instructions: "",
            input: [{ type: "message", role: "user", text }],
            tools: [],
          }),
        ),
      );
      const recorded = mock.requests().slice(before);
      expect(recorded).toHaveLength(3);
      for (const [index, response] of responses.entries()) {
        const echoed = response.output[0];
        const text = echoed?.type === "message" ? echoed.text : "";
        expect(text).toBe(`mock: ${texts[index]}`);
        const match = recorded.find((request) => request.body.includes(JSON.stringify(texts[index])));
        expect(response.requestBytes).toBe(match?.bytes);
      }
      expect(new Set(responses.map((response) => response.requestBytes)).size).toBe(3);
    });
  },
);
