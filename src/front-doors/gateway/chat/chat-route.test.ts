import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { errorOf, startTestGateway } from "../gateway.test-support.js";
import type { ChatCompletionObject } from "./chat-completion-object.js";

const WEATHER_TOOL = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather for a city.",
    parameters: { type: "object", properties: { city: { type: "string" } } },
  },
};

describe("POST /v1/chat/completions", () => {
  it("answers with a chat.completion object and the session headers", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/chat/completions", {
      model: "ignored",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "developer", content: [{ type: "text", text: "No emojis." }] },
        { role: "user", content: "hello" },
      ],
      max_completion_tokens: 64,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-toolsift-agent")).toBe("main");
    const session = response.headers.get("x-toolsift-session");
    // No session named: the conversation's fingerprint names it (session-hints.ts).
    expect(session).toMatch(/^fp-[0-9a-f]{24}$/u);
    const body = (await response.json()) as ChatCompletionObject;
    expect(body).toEqual({
      id: expect.stringMatching(/^chatcmpl-[0-9a-f]{24}$/u),
      object: "chat.completion",
      created: expect.any(Number),
      model: "mock/scripted",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "echo: hello", refusal: null },
          finish_reason: "stop",
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    });
    expect(test.runner.requests[0]).toMatchObject({
      agentId: "main",
      sessionKey: session,
      instructions: "Be brief.\n\nNo emojis.",
      maxOutputTokens: 64,
      input: [{ type: "message", role: "user", text: "hello" }],
    });
  });

  it("ends with tool_calls for a client tool, and takes the tool result as the next turn of the session", async () => {
    const test = await startTestGateway();
    const headers = { "x-toolsift-session": "chat-1", "x-toolsift-agent": "helper" };
    const messages: unknown[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "call:get_weather" },
    ];
    const first = await test.post("/v1/chat/completions", { messages, tools: [WEATHER_TOOL] }, headers);
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as ChatCompletionObject;
    const choice = firstBody.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message).toEqual({
      role: "assistant",
      content: null,
      refusal: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      ],
    });
    expect(test.runner.requests[0]?.clientTools).toEqual([
      {
        name: "get_weather",
        description: WEATHER_TOOL.function.description,
        parameters: WEATHER_TOOL.function.parameters,
      },
    ]);

    messages.push(choice?.message, { role: "tool", tool_call_id: "call_1", content: "18C" });
    const second = await test.post("/v1/chat/completions", { messages, tools: [WEATHER_TOOL] }, headers);
    expect(second.status).toBe(200);
    const secondBody = (await second.json()) as ChatCompletionObject;
    expect(secondBody.choices[0]?.message.content).toBe("tool said: 18C");
    expect(test.runner.requests[1]).toMatchObject({
      agentId: "helper",
      sessionKey: "chat-1",
      instructions: "sys",
      input: [{ type: "function_call_output", callId: "call_1", output: "18C" }],
    });
  });

  it("passes a whole conversation to a new session", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/chat/completions", {
      messages: [
        { role: "user", content: "first" },
        {
          role: "assistant",
          content: "checking",
          tool_calls: [{ id: "c9", type: "function", function: { name: "get_weather", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c9", content: [{ type: "text", text: "rainy" }] },
      ],
      tools: [WEATHER_TOOL],
    });
    expect(response.status).toBe(200);
    expect(test.runner.requests[0]?.input).toEqual([
      { type: "message", role: "user", text: "first" },
      { type: "message", role: "assistant", text: "checking" },
      { type: "function_call", callId: "c9", name: "get_weather", arguments: "{}" },
      { type: "function_call_output", callId: "c9", output: "rainy" },
    ]);
  });

  it("answers a resent conversation the log already holds whole with its last answer, logging nothing again", async () => {
    const test = await startTestGateway();
    const headers = { "x-toolsift-session": "ends-with-assistant" };
    await test.post("/v1/chat/completions", { messages: [{ role: "user", content: "a" }] }, headers);
    const response = await test.post(
      "/v1/chat/completions",
      {
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: "echo: a" },
        ],
      },
      headers,
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as ChatCompletionObject).choices[0]?.message.content).toBe("echo: a");
    // The runner was told there is nothing new; the session holds the user's message once.
    expect(test.runner.requests[1]?.input).toEqual([]);
    const events = await test.sessions.read("main", "ends-with-assistant");
    expect(events.filter((event) => event.type === "user-input")).toHaveLength(1);
  });

  it("refuses resent history that differs from its named session and leaves nothing new", async () => {
    const test = await startTestGateway();
    const headers = { "x-toolsift-session": "rewritten" };
    await test.post("/v1/chat/completions", { messages: [{ role: "user", content: "a" }] }, headers);
    const response = await test.post(
      "/v1/chat/completions",
      {
        messages: [
          { role: "user", content: "something else" },
          { role: "assistant", content: "echo: a" },
        ],
      },
      headers,
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).param).toBe("messages");
    expect(test.runner.requests).toHaveLength(1);
  });

  it("reports a run cut short with finish_reason length", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/chat/completions", {
      messages: [{ role: "user", content: "cut" }],
    });
    const body = (await response.json()) as ChatCompletionObject;
    expect(body.choices[0]?.finish_reason).toBe("length");
    expect(body.choices[0]?.message.content).toBe("partial");
  });

  it("answers a provider failure with a 502 error object", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/chat/completions", {
      messages: [{ role: "user", content: "fail:PROVIDER_FAILED" }],
    });
    expect(response.status).toBe(502);
    expect(await errorOf(response)).toMatchObject({ type: "server_error", code: "provider_failed" });
  });

  it.each([
    ["missing messages", {}, "messages"],
    ["messages of the wrong type", { messages: "hi" }, "messages"],
    ["only a system message", { messages: [{ role: "system", content: "x" }] }, "messages"],
    ["a function role", { messages: [{ role: "function", name: "f", content: "x" }] }, "messages[0].role"],
    [
      "a tool message without tool_call_id",
      { messages: [{ role: "tool", content: "x" }] },
      "messages[0].tool_call_id",
    ],
    [
      "an image part",
      { messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }] },
      "messages[0].content[0].type",
    ],
    [
      "malformed tool_calls",
      { messages: [{ role: "assistant", tool_calls: [{ id: "x" }] }] },
      "messages[0].tool_calls[0]",
    ],
    ["legacy functions", { messages: [{ role: "user", content: "x" }], functions: [] }, "functions"],
    ["n: 2", { messages: [{ role: "user", content: "x" }], n: 2 }, "n"],
    ["stream that is not a boolean", { messages: [{ role: "user", content: "x" }], stream: "yes" }, "stream"],
    [
      "stream_options that are not an object",
      { messages: [{ role: "user", content: "x" }], stream: true, stream_options: "usage" },
      "stream_options",
    ],
    [
      "include_usage that is not a boolean",
      { messages: [{ role: "user", content: "x" }], stream: true, stream_options: { include_usage: 1 } },
      "stream_options.include_usage",
    ],
    [
      "a bad message while streaming",
      { messages: [{ role: "wizard", content: "x" }], stream: true },
      "messages[0].role",
    ],
    [
      "a non-function tool",
      { messages: [{ role: "user", content: "x" }], tools: [{ type: "custom", custom: {} }] },
      "tools[0].type",
    ],
    ["max_tokens -1", { messages: [{ role: "user", content: "x" }], max_tokens: -1 }, "max_tokens"],
  ])("refuses %s with a 400 naming the param", async (_name, body, param) => {
    const test = await startTestGateway();
    const response = await test.post("/v1/chat/completions", body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.type).toBe("invalid_request_error");
    expect(error.param).toBe(param);
    expect(test.runner.requests).toHaveLength(0);
  });
});

describe("POST /v1/chat/completions through the official openai client", () => {
  it("parses the completion and the tool calls", async () => {
    const test = await startTestGateway();
    const client = new OpenAI({
      baseURL: `${test.url}/v1`,
      apiKey: "unused",
      maxRetries: 0,
      defaultHeaders: { "x-toolsift-session": "sdk-chat" },
    });
    const completion = await client.chat.completions.create({
      model: "ignored",
      messages: [{ role: "user", content: "call:get_weather" }],
      tools: [{ type: "function", function: WEATHER_TOOL.function }],
    });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type).toBe("function");
    if (call?.type !== "function") return;
    expect(call.function.name).toBe("get_weather");
    const answer = await client.chat.completions.create({
      model: "ignored",
      messages: [
        { role: "user", content: "call:get_weather" },
        { role: "assistant", tool_calls: [call] },
        { role: "tool", tool_call_id: call.id, content: "windy" },
      ],
      tools: [{ type: "function", function: WEATHER_TOOL.function }],
    });
    expect(answer.choices[0]?.message.content).toBe("tool said: windy");
    expect(answer.choices[0]?.finish_reason).toBe("stop");
    expect(test.runner.requests.map((request) => request.sessionKey)).toEqual(["sdk-chat", "sdk-chat"]);
  });
});
