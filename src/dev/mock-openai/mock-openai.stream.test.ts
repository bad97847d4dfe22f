import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockOpenAI } from "./start-mock-openai.js";
import type { MockOpenAI } from "./types.js";

let mock: MockOpenAI;
let client: OpenAI;

beforeAll(async () => {
  mock = await startMockOpenAI();
  client = new OpenAI({ apiKey: "test-key", baseURL: mock.baseUrl, maxRetries: 0 });
});

afterAll(async () => {
  await mock.close();
});

const WEATHER = {
  name: "weather_now",
  description: "Current weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const CLOCK = { name: "clock", description: "The time.", parameters: { type: "object", properties: {} } };

/** The three plans every test streams: plain text, two function calls, and the answer after the calls. */
const RESPONSES_TURNS: Array<[string, OpenAI.Responses.ResponseInput]> = [
  ["a text answer", [{ role: "user", content: "hello there, streaming world ✓" }]],
  ["two function calls", [{ role: "user", content: "go target=weather_now and=clock" }]],
  [
    "the answer after the calls",
    [
      { role: "user", content: "go target=weather_now and=clock" },
      { type: "function_call", call_id: "c1", name: "weather_now", arguments: '{"city":"qa"}' },
      { type: "function_call", call_id: "c2", name: "clock", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "sunny and warm" },
      { type: "function_call_output", call_id: "c2", output: "noon" },
    ],
  ],
];

/** The raw body of the newest logged request, and its cursor and size. */
function lastRecorded() {
  const recorded = mock.requests().at(-1);
  if (!recorded) throw new Error("nothing was logged");
  return recorded;
}

/**
 * An answer with what differs between two requests of one plan set aside: ids carry the request's cursor,
 * timestamps the second, input tokens the body size (checked on their own); the client's parse helpers add
 * `parsed`, `parsed_arguments` and `output_parsed`, which are not on the wire.
 */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value === "string") return value.replace(/^(resp_|msg_|fc_|call_|chatcmpl-)\d+/u, "$1#");
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).flatMap(([key, inner]): Array<[string, unknown]> => {
    if (["parsed", "parsed_arguments", "output_parsed"].includes(key)) return [];
    if (["created", "created_at", "input_tokens", "prompt_tokens", "total_tokens"].includes(key))
      return [[key, typeof inner]];
    return [[key, comparable(inner)]];
  });
  return Object.fromEntries(entries);
}

type Frame = { event?: string; data: string };

async function rawFrames(
  path: string,
  body: unknown,
): Promise<{ contentType: string | null; frames: Frame[] }> {
  const response = await fetch(`${mock.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const frames = text
    .split("\n\n")
    .filter((block) => block.length > 0)
    .map((block) => {
      const frame: Frame = { data: "" };
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) frame.event = line.slice("event: ".length);
        else if (line.startsWith("data: ")) frame.data = line.slice("data: ".length);
        else throw new Error(`unexpected SSE line ${JSON.stringify(line)}`);
      }
      return frame;
    });
  return { contentType: response.headers.get("content-type"), frames };
}

describe("POST /v1/responses with stream: true", () => {
  it.each(RESPONSES_TURNS)(
    "the official client's finalResponse() equals the non-stream answer: %s",
    async (_name, input) => {
      const request = {
        model: "gpt-test",
        instructions: "sys",
        input,
        tools: [WEATHER, CLOCK].map((tool) => ({ type: "function" as const, ...tool, strict: false })),
      };
      const whole = await client.responses.create(request);
      const wholeRecorded = lastRecorded();

      const stream = client.responses.stream(request);
      const deltas: string[] = [];
      stream.on("response.output_text.delta", (event) => deltas.push(event.delta));
      const streamed = await stream.finalResponse();
      const streamedRecorded = lastRecorded();

      expect(comparable(streamed)).toEqual(comparable(whole));
      expect(streamed.id).toBe(`resp_${streamedRecorded.cursor}`);
      expect(streamed.usage?.input_tokens).toBe(Math.ceil(streamedRecorded.bytes / 4));
      expect(whole.usage?.input_tokens).toBe(Math.ceil(wholeRecorded.bytes / 4));
      expect(JSON.parse(streamedRecorded.body)).toMatchObject({ stream: true });
      expect(deltas.join("")).toBe(whole.output_text);
      if (whole.output_text.length > 0) expect(deltas.length).toBeGreaterThan(1);
    },
  );

  it("writes the semantic events in order, named and numbered, without [DONE]", async () => {
    const { contentType, frames } = await rawFrames("/responses", {
      model: "m",
      input: [{ role: "user", content: "go target=weather_now" }],
      tools: [{ type: "function", ...WEATHER }],
      stream: true,
    });
    const cursor = lastRecorded().cursor;
    expect(contentType).toMatch(/^text\/event-stream/u);
    const events = frames.map(
      (frame): Record<string, unknown> => ({
        sseEvent: frame.event,
        ...(JSON.parse(frame.data) as Record<string, unknown>),
      }),
    );
    for (const event of events) expect(event.sseEvent).toBe(event.type);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    const types = events.map((event) => event.type);
    const argumentDeltas = events.filter((event) => event.type === "response.function_call_arguments.delta");
    expect(types).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      ...argumentDeltas.map(() => "response.function_call_arguments.delta"),
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(argumentDeltas.length).toBeGreaterThan(1);
    expect(argumentDeltas.map((event) => event.delta).join("")).toBe('{"city":"qa"}');
    expect(events[0]).toMatchObject({
      response: { id: `resp_${cursor}`, status: "in_progress", output: [], usage: null },
    });
    expect(events[2]).toMatchObject({
      output_index: 0,
      item: {
        type: "function_call",
        id: `fc_${cursor}_0`,
        call_id: `call_${cursor}_1`,
        name: "weather_now",
        arguments: "",
        status: "in_progress",
      },
    });
    expect(argumentDeltas[0]).toMatchObject({ item_id: `fc_${cursor}_0`, output_index: 0 });
    expect(events.at(-3)).toMatchObject({
      item_id: `fc_${cursor}_0`,
      name: "weather_now",
      arguments: '{"city":"qa"}',
    });
    expect(events.at(-1)).toMatchObject({ response: { id: `resp_${cursor}`, status: "completed" } });
    expect(frames.some((frame) => frame.data === "[DONE]")).toBe(false);
  });

  it("streams a message as content part, word deltas and done events", async () => {
    const { frames } = await rawFrames("/responses", { model: "m", input: "one two  three", stream: true });
    const events = frames.map((frame) => JSON.parse(frame.data) as Record<string, unknown>);
    const cursor = lastRecorded().cursor;
    const place = { item_id: `msg_${cursor}_0`, output_index: 0, content_index: 0 };
    expect(events.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events[3]).toMatchObject({ ...place, part: { type: "output_text", text: "" } });
    expect(events.slice(4, 8).map((event) => event.delta)).toEqual(["mock: ", "one ", "two  ", "three"]);
    expect(events[8]).toMatchObject({ ...place, text: "mock: one two  three" });
    expect(events[9]).toMatchObject({
      ...place,
      part: { type: "output_text", text: "mock: one two  three" },
    });
  });
});

describe("POST /v1/chat/completions with stream: true", () => {
  const CHAT_TURNS: Array<[string, OpenAI.Chat.ChatCompletionMessageParam[]]> = [
    ["a text answer", [{ role: "user", content: "hello there, streaming world ✓" }]],
    ["two function calls", [{ role: "user", content: "go target=weather_now and=clock" }]],
    [
      "the answer after the calls",
      [
        { role: "user", content: "go target=weather_now and=clock" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "weather_now", arguments: '{"city":"qa"}' } },
            { id: "c2", type: "function", function: { name: "clock", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "sunny and warm" },
        { role: "tool", tool_call_id: "c2", content: "noon" },
      ],
    ],
  ];
  const tools = [WEATHER, CLOCK].map((tool) => ({ type: "function" as const, function: tool }));

  it.each(CHAT_TURNS)(
    "the official client's finalChatCompletion() equals the non-stream answer: %s",
    async (_name, messages) => {
      const whole = await client.chat.completions.create({ model: "gpt-test", messages, tools });
      const stream = client.chat.completions.stream({
        model: "gpt-test",
        messages,
        tools,
        stream_options: { include_usage: true },
      });
      const deltas: string[] = [];
      stream.on("content", (delta) => deltas.push(delta));
      const streamed = await stream.finalChatCompletion();
      const recorded = lastRecorded();
      expect(comparable(streamed)).toEqual(comparable(whole));
      expect(streamed.id).toBe(`chatcmpl-${recorded.cursor}`);
      expect(streamed.usage?.prompt_tokens).toBe(Math.ceil(recorded.bytes / 4));
      expect(deltas.join("")).toBe(whole.choices[0]?.message.content ?? "");
    },
  );

  it("writes chunks: role first, content and tool-call deltas, finish_reason, usage, then [DONE]", async () => {
    const { contentType, frames } = await rawFrames("/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "go target=weather_now and=clock" }],
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    const cursor = lastRecorded().cursor;
    expect(contentType).toMatch(/^text\/event-stream/u);
    expect(frames.at(-1)).toEqual({ data: "[DONE]" });
    expect(frames.every((frame) => frame.event === undefined)).toBe(true);
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.data) as Record<string, unknown>);
    for (const chunk of chunks)
      expect(chunk).toMatchObject({ id: `chatcmpl-${cursor}`, object: "chat.completion.chunk", model: "m" });
    const deltas = chunks.slice(0, -1).map((chunk) => (chunk.choices as Array<{ delta: unknown }>)[0]?.delta);
    expect(deltas[0]).toEqual({ role: "assistant", content: "", refusal: null });
    expect(deltas[1]).toEqual({
      tool_calls: [
        {
          index: 0,
          id: `call_${cursor}_1`,
          type: "function",
          function: { name: "weather_now", arguments: "" },
        },
      ],
    });
    const pieces = (index: number) =>
      deltas.flatMap((delta) => {
        const calls =
          (delta as { tool_calls?: Array<{ index: number; id?: string; function: { arguments: string } }> })
            .tool_calls ?? [];
        return calls
          .filter((call) => call.index === index && call.id === undefined)
          .map((call) => call.function.arguments);
      });
    expect(pieces(0).length).toBeGreaterThan(1);
    expect(pieces(0).join("")).toBe('{"city":"qa"}');
    expect(deltas).toContainEqual({
      tool_calls: [
        { index: 1, id: `call_${cursor}_2`, type: "function", function: { name: "clock", arguments: "" } },
      ],
    });
    expect(chunks.at(-2)?.choices).toEqual([
      { index: 0, delta: {}, logprobs: null, finish_reason: "tool_calls" },
    ]);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: Math.ceil(lastRecorded().bytes / 4) },
    });
  });

  it("streams text word by word and leaves usage out unless asked", async () => {
    const { frames } = await rawFrames("/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "one two" }],
      stream: true,
    });
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.data) as Record<string, unknown>);
    const contents = chunks.map(
      (chunk) => (chunk.choices as Array<{ delta: { content?: string } }>)[0]?.delta.content,
    );
    expect(contents).toEqual(["", "mock: ", "one ", "two", undefined]);
    expect(chunks.at(-1)?.choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }]);
    expect(chunks.some((chunk) => "usage" in chunk)).toBe(false);
    expect(frames.at(-1)).toEqual({ data: "[DONE]" });
  });

  it("logs streamed requests raw, like any other", async () => {
    const body = JSON.stringify({
      model: "m",
      messages: [{ role: "user", content: "logged" }],
      stream: true,
    });
    const before = lastRecorded().cursor;
    await (await fetch(`${mock.baseUrl}/chat/completions`, { method: "POST", body })).text();
    const response = await fetch(`${mock.baseUrl.replace(/\/v1$/u, "")}/debug/requests?after=${before}`);
    const logged = (await response.json()) as {
      requests: Array<{ path: string; body: string; bytes: number }>;
    };
    expect(logged.requests.map((request) => [request.path, request.body, request.bytes])).toEqual([
      ["/v1/chat/completions", body, Buffer.byteLength(body)],
    ]);
  });
});
