import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedPrefixBytes } from "./prompt-cache.js";
import { startMockOpenAI } from "./start-mock-openai.js";
import type { MockOpenAI } from "./types.js";

let mock: MockOpenAI;
let client: Anthropic;
let origin: string;

beforeAll(async () => {
  mock = await startMockOpenAI();
  origin = mock.baseUrl.replace(/\/v1$/u, "");
  client = new Anthropic({ apiKey: "test-key", baseURL: origin, maxRetries: 0, openTelemetry: false });
});

afterAll(async () => {
  await mock.close();
});

const WEATHER: Anthropic.Tool = {
  name: "weather_now",
  description: "Current weather for a city.",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const CLOCK: Anthropic.Tool = {
  name: "clock",
  description: "The time.",
  input_schema: { type: "object", properties: {} },
  cache_control: { type: "ephemeral" },
};
const SYSTEM: Anthropic.TextBlockParam[] = [
  { type: "text", text: "You are the mock.", cache_control: { type: "ephemeral" } },
];

const CALLS_TURN: Anthropic.MessageParam[] = [{ role: "user", content: "go target=weather_now and=clock" }];

/** The turn after both calls ran (the ids are the client's own). */
const ANSWER_TURN: Anthropic.MessageParam[] = [
  ...CALLS_TURN,
  {
    role: "assistant",
    content: [
      { type: "tool_use", id: "toolu_a", name: "weather_now", input: { city: "qa" } },
      { type: "tool_use", id: "toolu_b", name: "clock", input: {} },
    ],
  },
  {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_a", content: "sunny and warm" },
      { type: "tool_result", tool_use_id: "toolu_b", content: [{ type: "text", text: "noon" }] },
    ],
  },
];

/** An answer with what differs between two requests set aside: ids carry the cursor, usage the cache state. */
function comparable(message: Anthropic.Message): unknown {
  // The client's stream helper adds fields that are not on the wire.
  const {
    parsed_output: _parsed,
    stop_details: _details,
    ...wire
  } = message as Anthropic.Message & {
    parsed_output?: unknown;
    stop_details?: unknown;
  };
  return {
    ...wire,
    id: "msg_#",
    content: message.content.map((block) => (block.type === "tool_use" ? { ...block, id: "#" } : block)),
    usage: "set aside",
  };
}

describe("mock /v1/messages with the official Anthropic client", () => {
  it("calls both declared targets in one answer with stop_reason tool_use", async () => {
    const message = await client.messages.create({
      model: "claude-mock",
      max_tokens: 256,
      system: SYSTEM,
      tools: [WEATHER, CLOCK],
      messages: CALLS_TURN,
    });
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      model: "claude-mock",
      stop_reason: "tool_use",
      stop_sequence: null,
    });
    expect(message.content).toEqual([
      {
        type: "tool_use",
        id: expect.stringMatching(/^call_\d+_1$/u),
        name: "weather_now",
        input: { city: "qa" },
      },
      { type: "tool_use", id: expect.stringMatching(/^call_\d+_2$/u), name: "clock", input: {} },
    ]);
  });

  it("answers with the tool results (text or text blocks) and end_turn", async () => {
    const message = await client.messages.create({
      model: "claude-mock",
      max_tokens: 256,
      tools: [WEATHER, CLOCK],
      messages: ANSWER_TURN,
    });
    expect(message.stop_reason).toBe("end_turn");
    expect(message.content).toEqual([{ type: "text", text: "Done. sunny and warm noon", citations: null }]);
  });

  it.each([
    ["a text answer", [{ role: "user", content: "hello there, streaming world ✓" }]],
    ["two tool calls", CALLS_TURN],
    ["the answer after the calls", ANSWER_TURN],
  ] as Array<[string, Anthropic.MessageParam[]]>)(
    "streams %s as events the client's finalMessage() rebuilds into the non-stream answer",
    async (_name, messages) => {
      const params = {
        model: "claude-mock",
        max_tokens: 256,
        system: SYSTEM,
        tools: [WEATHER, CLOCK],
        messages,
      };
      const whole = await client.messages.create(params);
      const stream = client.messages.stream(params);
      const texts: string[] = [];
      stream.on("text", (text) => texts.push(text));
      const final = await stream.finalMessage();
      expect(comparable(final)).toEqual(comparable(whole));
      expect(texts.join("")).toBe(
        whole.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join(""),
      );
      expect(final.usage.output_tokens).toBe(whole.usage.output_tokens);
    },
  );

  it("writes Anthropic's event sequence with named events", async () => {
    const response = await fetch(`${origin}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "m",
        max_tokens: 16,
        stream: true,
        messages: [{ role: "user", content: "hi you" }],
      }),
    });
    const text = await response.text();
    const names = [...text.matchAll(/^event: (\S+)$/gmu)].map((match) => match[1]);
    expect(names).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
  });
});

describe("mock /v1/messages prompt-cache usage", () => {
  it("writes the prefix up to the last breakpoint first, then reads it while it stays byte-identical", async () => {
    // A prefix no other test sent: both breakpoints (the last tool, the system block) are new.
    const unique = `${Date.now()}`;
    const tools = [WEATHER, { ...CLOCK, description: `The time (${unique}).` }];
    const system: Anthropic.TextBlockParam[] = [
      { type: "text", text: `A prefix of its own ${unique}.`, cache_control: { type: "ephemeral" } },
    ];
    const first = await client.messages.create({
      model: "m",
      max_tokens: 64,
      system,
      tools,
      messages: [{ role: "user", content: "one" }],
    });
    const firstBody = JSON.parse(mock.requests().at(-1)?.body ?? "{}") as unknown;
    const second = await client.messages.create({
      model: "m",
      max_tokens: 64,
      system,
      tools,
      messages: [{ role: "user", content: "two, a longer conversation" }],
    });
    const prefixTokens = Math.ceil(cachedPrefixBytes(firstBody) / 4);
    expect(prefixTokens).toBeGreaterThan(0);
    expect(first.usage).toMatchObject({
      cache_creation_input_tokens: prefixTokens,
      cache_read_input_tokens: 0,
    });
    expect(second.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: prefixTokens,
    });
    const recorded = mock.requests().at(-1);
    expect(second.usage.input_tokens).toBe(Math.ceil((recorded?.bytes ?? 0) / 4) - prefixTokens);

    // One changed byte in the system block: only the tools' prefix (first breakpoint) is still a read.
    const changed = await client.messages.create({
      model: "m",
      max_tokens: 64,
      system: [{ ...system[0], text: `${system[0]?.text}!` } as Anthropic.TextBlockParam],
      tools,
      messages: [{ role: "user", content: "one" }],
    });
    expect(changed.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect(changed.usage.cache_read_input_tokens).toBeLessThan(prefixTokens);
    expect(changed.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it("reports no cache use for a request without breakpoints", async () => {
    const message = await client.messages.create({
      model: "m",
      max_tokens: 64,
      messages: [{ role: "user", content: "plain" }],
    });
    expect(message.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });
});

describe("mock /v1/messages refusals in Anthropic's shape", () => {
  async function post(body: string) {
    const response = await fetch(`${origin}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    return { status: response.status, json: (await response.json()) as unknown };
  }

  it.each([
    ["{not json", "The request body is not valid JSON"],
    ["[1]", "The request body must be a JSON object."],
    [JSON.stringify({ messages: [{ role: "user", content: "x" }] }), "max_tokens is required"],
    [JSON.stringify({ max_tokens: 5, messages: [] }), "messages is required"],
    [
      JSON.stringify({ max_tokens: 5, messages: [{ role: "tool", content: "x" }] }),
      'messages.0.role must be "user", "assistant" or "system".',
    ],
    [
      JSON.stringify({ max_tokens: 5, messages: [{ role: "user", content: [{ type: "tool_result" }] }] }),
      "messages.0: a tool_result block needs tool_use_id.",
    ],
  ])("refuses %s with 400 invalid_request_error", async (body, message) => {
    const { status, json } = await post(body);
    expect(status).toBe(400);
    expect(json).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: expect.any(String) },
    });
    expect((json as { error: { message: string } }).error.message).toContain(message);
  });

  it("answers an unknown method on /v1/messages with not_found_error, and the SDK reads it", async () => {
    const response = await fetch(`${origin}/v1/messages`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    const error = await client.messages
      .create({ model: "m", max_tokens: 0, messages: [{ role: "user", content: "x" }] })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.APIError>).apiMessage).toBe(
      "max_tokens is required: a whole number of at least 1.",
    );
  });
});
