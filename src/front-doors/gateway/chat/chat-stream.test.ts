import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { startTestGateway } from "../gateway.test-support.js";
import { withoutRunIdentity } from "../sse.test-support.js";

const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });

const WEATHER_TOOL = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Weather for a city.",
    parameters: { type: "object", properties: { city: { type: "string" } } },
  },
};

describe("POST /v1/chat/completions with stream: true, through the official openai client", () => {
  it("create({ stream: true, stream_options: { include_usage: true } }): role, deltas, finish, usage", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    const stream = await client.chat.completions.create({
      model: "toolsift",
      messages: [{ role: "user", content: "deltas:Hel|lo" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta ?? null)).toEqual([
      { role: "assistant", content: "" },
      { content: "Hel" },
      { content: "lo" },
      {},
      null,
    ]);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason ?? null)).toEqual([
      null,
      null,
      null,
      "stop",
      null,
    ]);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    });
  });

  it("sends no usage chunk without include_usage", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const response = await test.post("/v1/chat/completions", {
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    const text = await response.text();
    expect(text).not.toContain('"usage"');
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
  });

  it("chat.completions.stream() + finalChatCompletion() equals the non-stream completion", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    for (const content of ["deltas:Hello|, world", "turns:One|Two", "call:get_weather", "cut"]) {
      const request = {
        model: "toolsift",
        messages: [{ role: "user" as const, content }],
        tools: [WEATHER_TOOL],
      };
      const whole = await client.chat.completions.create(request);
      const stream = client.chat.completions.stream(request);
      const deltas: string[] = [];
      stream.on("content.delta", (event) => deltas.push(event.delta));
      const final = await stream.finalChatCompletion();
      const expected = withoutRunIdentity(whole) as {
        choices: Array<{ message: Record<string, unknown> }>;
        usage: unknown;
      };
      const got = withoutRunIdentity(final) as typeof expected;
      // The client builds its final completion from the chunks: the message and finish agree with the whole one.
      expect(got.choices[0]).toMatchObject({
        ...expected.choices[0],
        message: expect.objectContaining({
          role: "assistant",
          content: expected.choices[0]?.message.content,
          ...(expected.choices[0]?.message.tool_calls
            ? { tool_calls: expected.choices[0]?.message.tool_calls }
            : {}),
        }),
      });
      expect(deltas.join("")).toBe(whole.choices[0]?.message.content ?? "");
    }
  });

  it("hands client tool calls back as tool_calls deltas (finish_reason tool_calls), then continues", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "call:get_weather" }];
    const final = await client.chat.completions
      .stream(
        { model: "toolsift", messages, tools: [WEATHER_TOOL] },
        { headers: { "x-toolsift-session": "chat-tools" } },
      )
      .finalChatCompletion();
    const choice = final.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.tool_calls).toEqual([
      { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    ]);
    messages.push(choice?.message as OpenAI.ChatCompletionMessageParam, {
      role: "tool",
      tool_call_id: "call_1",
      content: "sunny",
    });
    const answer = await client.chat.completions
      .stream(
        { model: "toolsift", messages, tools: [WEATHER_TOOL] },
        { headers: { "x-toolsift-session": "chat-tools" } },
      )
      .finalChatCompletion();
    expect(answer.choices[0]?.message.content).toBe("tool said: sunny");
  });

  it("ends a run that fails mid-stream with an error the client raises", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    const stream = await client.chat.completions.create({
      model: "toolsift",
      messages: [{ role: "user", content: "fail-after-text:PROVIDER_FAILED" }],
      stream: true,
    });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? "");
    })();
    await expect(reading).rejects.toMatchObject({ code: "provider_failed" });
    expect(seen.join("")).toBe("partial answer");
  });
});
