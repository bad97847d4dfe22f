import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockOpenAI, startMockOpenAI } from "../../dev/mock-openai/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createProvider } from "./create-provider.js";
import type { ConversationItem, ProviderRequest, ProviderResponse, ProviderSettings } from "./types.js";

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
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  { name: "clock", description: "The time.", parameters: { type: "object", properties: {} } },
];

const TURNS: Array<[string, ConversationItem[]]> = [
  ["a text answer", [{ type: "message", role: "user", text: "hello there, streaming world ✓ ünïcödé" }]],
  ["two function calls", [{ type: "message", role: "user", text: "go target=weather_now and=clock" }]],
  [
    "the answer after the calls",
    [
      { type: "message", role: "user", text: "go target=weather_now and=clock" },
      { type: "function_call", callId: "c1", name: "weather_now", arguments: '{"city":"qa"}' },
      { type: "function_call", callId: "c2", name: "clock", arguments: "{}" },
      { type: "function_call_output", callId: "c1", output: "sunny and warm" },
      { type: "function_call_output", callId: "c2", output: "noon" },
    ],
  ],
];

/** Call ids carry the mock's request cursor: set it aside to compare two requests of one plan. */
function withoutCursor(output: readonly ConversationItem[]): ConversationItem[] {
  return output.map((item) =>
    item.type === "function_call" ? { ...item, callId: item.callId.replace(/^call_\d+_/u, "call_#_") } : item,
  );
}

function lastRecorded() {
  const recorded = mock.requests().at(-1);
  if (!recorded) throw new Error("nothing was logged");
  return recorded;
}

describe.each<ProviderSettings["api"]>(["openai-responses", "openai-chat"])(
  "createProvider (%s) with onTextDelta, against the mock",
  (api) => {
    const provider = () => createProvider("mock", { api, baseUrl: mock.baseUrl });

    it.each(TURNS)("streams %s into the same response as without streaming", async (_name, input) => {
      const request: ProviderRequest = {
        model: "mock-model",
        instructions: "Be brief.",
        input,
        tools: TOOLS,
      };
      const whole = await provider().complete(request);
      const wholeRecorded = lastRecorded();
      const deltas: string[] = [];
      const streamed = await provider().complete({ ...request, onTextDelta: (delta) => deltas.push(delta) });
      const recorded = lastRecorded();

      const body = JSON.parse(recorded.body) as Record<string, unknown>;
      expect(body.stream).toBe(true);
      if (api === "openai-chat") expect(body.stream_options).toEqual({ include_usage: true });
      expect(streamed.requestBytes).toBe(recorded.bytes);
      expect(whole.requestBytes).toBe(wholeRecorded.bytes);

      expect(withoutCursor(streamed.output)).toEqual(withoutCursor(whole.output));
      for (const item of streamed.output)
        if (item.type === "function_call")
          expect(item.callId).toMatch(new RegExp(`^call_${recorded.cursor}_\\d$`, "u"));
      expect(streamed.usage).toEqual({
        inputTokens: Math.ceil(recorded.bytes / 4),
        outputTokens: whole.usage?.outputTokens,
      });
      const text = streamed.output.flatMap((item) => (item.type === "message" ? [item.text] : [])).join("");
      expect(deltas.join("")).toBe(text);
      if (text.length > 0) expect(deltas.length).toBeGreaterThan(1);
      else expect(deltas).toEqual([]);
    });

    it("without onTextDelta sends no stream flag", async () => {
      await provider().complete({ model: "m", instructions: "", input: TURNS[0]?.[1] ?? [], tools: [] });
      const body = JSON.parse(lastRecorded().body) as Record<string, unknown>;
      expect(body.stream).toBeUndefined();
      expect(body.stream_options).toBeUndefined();
    });

    it("an abort from inside onTextDelta stops at once: CANCELLED, no further piece handed on", async () => {
      const controller = new AbortController();
      const deltas: string[] = [];
      const error = await provider()
        .complete({
          model: "m",
          instructions: "",
          input: [{ type: "message", role: "user", text: "one two three four five six" }],
          tools: [],
          signal: controller.signal,
          onTextDelta: (delta) => {
            deltas.push(delta);
            controller.abort();
          },
        })
        .catch((reason: unknown) => reason);
      expect(isToolsiftError(error) && error.code).toBe("CANCELLED");
      expect(deltas).toEqual(["mock: "]);
    });

    it("a listener that throws cancels the stream and its own error comes back unchanged", async () => {
      const failure = new RangeError("listener gave up");
      const error = await provider()
        .complete({
          model: "m",
          instructions: "",
          input: [{ type: "message", role: "user", text: "one two three" }],
          tools: [],
          onTextDelta: () => {
            throw failure;
          },
        })
        .catch((reason: unknown) => reason);
      expect(error).toBe(failure);
    });
  },
);

describe("createProvider with onTextDelta: concurrent streams on one provider", () => {
  it("keeps each request's pieces and bytes apart", async () => {
    const provider = createProvider("mock", { api: "openai-chat", baseUrl: mock.baseUrl });
    const texts = ["alpha beta", `gamma ${"delta ".repeat(200)}`, "epsilon zeta eta"];
    const results = await Promise.all(
      texts.map(async (text) => {
        const deltas: string[] = [];
        const response: ProviderResponse = await provider.complete({
          model: "m",
          instructions: "",
          input: [{ type: "message", role: "user", text }],
          tools: [],
          onTextDelta: (delta) => deltas.push(delta),
        });
        return { text, deltas, response };
      }),
    );
    for (const { text, deltas, response } of results) {
      expect(deltas.join("")).toBe(`mock: ${text.trim()}`);
      expect(response.output).toEqual([{ type: "message", role: "assistant", text: `mock: ${text.trim()}` }]);
      const match = mock.requests().find((request) => request.body.includes(JSON.stringify(text)));
      expect(response.requestBytes).toBe(match?.bytes);
    }
  });
});
