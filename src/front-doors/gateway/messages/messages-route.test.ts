import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { startTestGateway } from "../gateway.test-support.js";
import { withoutRunIdentity } from "../sse.test-support.js";

// The official `@anthropic-ai/sdk` client against a real gateway on 127.0.0.1 over the FakeRunner:
// `POST /v1/messages` whole and streamed, client tools, and the request fields the route reads.

const clientFor = (url: string, options: { apiKey?: string; session?: string } = {}) =>
  new Anthropic({
    baseURL: url,
    apiKey: options.apiKey ?? "unused-on-loopback",
    maxRetries: 0,
    ...(options.session === undefined ? {} : { defaultHeaders: { "x-toolsift-session": options.session } }),
  });

const WEATHER_TOOL = {
  name: "get_weather",
  description: "Weather for a city.",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } } },
};

describe("POST /v1/messages through the official @anthropic-ai/sdk client", () => {
  it("messages.create answers an Anthropic message: text block, end_turn, usage, toolsift headers", async () => {
    const test = await startTestGateway();
    const { data: message, response } = await clientFor(test.url)
      .messages.create({ model: "toolsift", max_tokens: 256, messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    expect(message).toEqual({
      id: expect.stringMatching(/^msg_[0-9a-f]{24}$/u),
      type: "message",
      role: "assistant",
      model: "mock/scripted",
      content: [{ type: "text", text: "echo: hi" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: {
        input_tokens: 11,
        output_tokens: 7,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
    expect(response.headers.get("x-toolsift-agent")).toBe("main");
    expect(response.headers.get("x-toolsift-session")).toMatch(/^fp-[0-9a-f]{24}$/u);
  });

  it("reads system (string or text blocks), max_tokens, the agent from model, and block content", async () => {
    const test = await startTestGateway();
    const client = clientFor(test.url);
    await client.messages.create({
      model: "toolsift/helper",
      max_tokens: 99,
      system: [
        { type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } },
        { type: "text", text: "Answer in English." },
      ],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "one" },
            { type: "text", text: "two" },
          ],
        },
      ],
      service_tier: "auto",
      metadata: { user_id: "u-1" },
    });
    const run = test.runner.requests.at(-1);
    expect(run).toMatchObject({
      agentId: "helper",
      instructions: "Be brief.\nAnswer in English.",
      maxOutputTokens: 99,
      input: [{ type: "message", role: "user", text: "one\ntwo" }],
    });
    await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 10,
      system: "Be kind.",
      messages: [{ role: "user", content: "x" }],
    });
    expect(test.runner.requests.at(-1)).toMatchObject({ agentId: "main", instructions: "Be kind." });
  });

  it("messages.stream(): text events as they come, finalMessage() equal to the whole answer", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = clientFor(test.url);
    for (const [index, content] of [
      "deltas:Hello|, world",
      "turns:One|Two",
      "call:get_weather",
      "cut",
    ].entries()) {
      const request = {
        model: "toolsift",
        max_tokens: 256,
        messages: [{ role: "user" as const, content }],
        tools: [WEATHER_TOOL],
      };
      // Two sessions: the same request twice in one session would be a repeat, answered from the log.
      const whole = await client.messages.create(request, {
        headers: { "x-toolsift-session": `whole-${index}` },
      });
      const stream = client.messages.stream(request, {
        headers: { "x-toolsift-session": `streamed-${index}` },
      });
      const texts: string[] = [];
      stream.on("text", (text) => texts.push(text));
      // The SDK's own addition (structured output parsing) aside, the streamed message is the whole one.
      const { parsed_output: _parsed, ...final } = await stream.finalMessage();
      expect(withoutRunIdentity(final)).toEqual(withoutRunIdentity(whole));
      const wholeText = whole.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
      expect(texts.join("")).toBe(wholeText.join(""));
    }
    const deltas: string[] = [];
    const stream = client.messages.stream({
      model: "toolsift",
      max_tokens: 256,
      messages: [{ role: "user", content: "deltas:Hel|lo" }],
    });
    stream.on("text", (text) => deltas.push(text));
    expect(await stream.finalText()).toBe("Hello");
    expect(deltas).toEqual(["Hel", "lo"]);
  });

  it("create({ stream: true }) sends Anthropic's event sequence", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const stream = await clientFor(test.url).messages.create({
      model: "toolsift",
      max_tokens: 256,
      messages: [{ role: "user", content: "turns:One|Two" }],
      stream: true,
    });
    const events: RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events[0]).toMatchObject({
      message: { type: "message", role: "assistant", model: "mock/scripted", content: [], stop_reason: null },
    });
    expect(events[4]).toEqual({
      type: "content_block_start",
      index: 1,
      content_block: { type: "text", text: "" },
    });
    expect(events[5]).toEqual({
      type: "content_block_delta",
      index: 1,
      delta: { type: "text_delta", text: "Two" },
    });
    expect(events[7]).toEqual({
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: {
        input_tokens: 11,
        output_tokens: 7,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
    // The SDK drops pings; they are on the wire right after message_start.
    const raw = await test.post("/v1/messages", {
      model: "toolsift",
      max_tokens: 5,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    const text = await raw.text();
    expect(text.startsWith("event: message_start\ndata: ")).toBe(true);
    expect(text).toContain('\n\nevent: ping\ndata: {"type":"ping"}\n\n');
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
  });

  it.each([true, false])(
    "client tool round trip: tool_use → tool_result → the final answer (streamed: %s)",
    async (streamed) => {
      const test = await startTestGateway({ emitEvents: true });
      const client = clientFor(test.url, { session: `tools-${streamed}` });
      const messages: MessageParam[] = [{ role: "user", content: "call:get_weather" }];
      const ask = (list: MessageParam[]) => {
        const request = { model: "toolsift", max_tokens: 256, messages: list, tools: [WEATHER_TOOL] };
        return streamed ? client.messages.stream(request).finalMessage() : client.messages.create(request);
      };
      const first = await ask(messages);
      expect(first.stop_reason).toBe("tool_use");
      expect(first.content).toEqual([
        { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } },
      ]);
      messages.push(
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "18C" }] },
      );
      const second = await ask(messages);
      expect(second.stop_reason).toBe("end_turn");
      expect(second.content).toEqual([{ type: "text", text: "tool said: 18C" }]);
      // The session already holds the first turn: only the tool result is the new turn's input.
      expect(test.runner.requests.at(-1)?.input).toEqual([
        { type: "function_call_output", callId: "call_1", output: "18C" },
      ]);
      expect(test.runner.requests.at(-1)?.clientTools).toEqual([
        { name: "get_weather", description: "Weather for a city.", parameters: WEATHER_TOOL.input_schema },
      ]);
    },
  );

  it("a new session gets the whole resent conversation; is_error and text blocks of tool results pass on", async () => {
    const test = await startTestGateway();
    const answer = await clientFor(test.url).messages.create({
      model: "toolsift",
      max_tokens: 256,
      messages: [
        { role: "user", content: "weather?" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "sig" },
            { type: "text", text: "Let me look." },
            { type: "tool_use", id: "toolu_9", name: "get_weather", input: { city: "Oslo" } },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_9",
              is_error: true,
              content: [{ type: "text", text: "station offline" }],
            },
          ],
        },
      ],
      tools: [WEATHER_TOOL],
    });
    expect(answer.content).toEqual([{ type: "text", text: "tool said: station offline" }]);
    expect(test.runner.requests.at(-1)?.input).toEqual([
      { type: "message", role: "user", text: "weather?" },
      { type: "message", role: "assistant", text: "Let me look." },
      { type: "function_call", callId: "toolu_9", name: "get_weather", arguments: '{"city":"Oslo"}' },
      { type: "function_call_output", callId: "toolu_9", output: "station offline", isError: true },
    ]);
  });
});
