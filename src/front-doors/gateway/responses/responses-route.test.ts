import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { errorOf, startTestGateway } from "../gateway.test-support.js";
import type { ResponsesObject } from "./responses-object.js";

const WEATHER_TOOL = {
  type: "function",
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

describe("POST /v1/responses", () => {
  it("answers a string input with a Responses object and the session headers", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", { model: "gpt-anything", input: "hello there" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/u);
    const session = response.headers.get("x-toolsift-session");
    expect(session).toMatch(/^fp-[0-9a-f]{24}$/u);
    expect(response.headers.get("x-toolsift-agent")).toBe("main");
    const body = (await response.json()) as ResponsesObject;
    expect(body).toMatchObject({
      object: "response",
      status: "completed",
      model: "mock/scripted",
      output_text: "echo: hello there",
      error: null,
      incomplete_details: null,
      usage: { input_tokens: 11, output_tokens: 7, total_tokens: 18 },
    });
    expect(body.id).toMatch(/^resp_[0-9a-f]{24}$/u);
    expect(typeof body.created_at).toBe("number");
    expect(body.output).toEqual([
      {
        type: "message",
        id: expect.stringMatching(/^msg_/u),
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "echo: hello there", annotations: [] }],
      },
    ]);
    expect(test.runner.requests).toEqual([
      {
        agentId: "main",
        sessionKey: session,
        input: [{ type: "message", role: "user", text: "hello there" }],
        signal: expect.any(AbortSignal),
        runSignal: expect.objectContaining({ signal: expect.any(AbortSignal), timedOut: false }),
      },
    ]);
  });

  it("gives every request without a session header a new session", async () => {
    const test = await startTestGateway();
    const first = await test.post("/v1/responses", { input: "one" });
    const second = await test.post("/v1/responses", { input: "two" });
    expect(first.headers.get("x-toolsift-session")).not.toBe(second.headers.get("x-toolsift-session"));
  });

  it("maps input items, system and developer messages, instructions and max_output_tokens", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", {
      instructions: "Be brief.",
      max_output_tokens: 256,
      input: [
        { role: "system", content: "You are terse." },
        { type: "message", role: "developer", content: [{ type: "input_text", text: "No emojis." }] },
        {
          role: "user",
          content: [
            { type: "input_text", text: "part one" },
            { type: "input_text", text: "part two" },
          ],
        },
      ],
    });
    expect(response.status).toBe(200);
    expect(test.runner.requests[0]).toMatchObject({
      instructions: "Be brief.\n\nYou are terse.\n\nNo emojis.",
      maxOutputTokens: 256,
      input: [{ type: "message", role: "user", text: "part one\npart two" }],
    });
    expect(test.runner.requests[0]?.clientTools).toBeUndefined();
  });

  it("selects the agent and session from the headers", async () => {
    const test = await startTestGateway();
    const headers = { "x-toolsift-agent": "helper", "x-toolsift-session": "my-session.1" };
    const first = await test.post("/v1/responses", { input: "a" }, headers);
    const second = await test.post("/v1/responses", { input: "b" }, headers);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.headers.get("x-toolsift-agent")).toBe("helper");
    expect(first.headers.get("x-toolsift-session")).toBe("my-session.1");
    expect(test.runner.requests.map((request) => [request.agentId, request.sessionKey])).toEqual([
      ["helper", "my-session.1"],
      ["helper", "my-session.1"],
    ]);
    const events = await test.sessions.read("helper", "my-session.1");
    expect(events.filter((event) => event.type === "user-input")).toHaveLength(2);
  });

  it("ends the response with a client function_call, continued by function_call_output on the same session", async () => {
    const test = await startTestGateway();
    const first = await test.post("/v1/responses", { input: "call:get_weather", tools: [WEATHER_TOOL] });
    expect(first.status).toBe(200);
    const session = first.headers.get("x-toolsift-session");
    const firstBody = (await first.json()) as ResponsesObject;
    expect(firstBody.status).toBe("completed");
    expect(firstBody.output_text).toBe("");
    expect(firstBody.output).toEqual([
      {
        type: "function_call",
        id: expect.stringMatching(/^fc_/u),
        call_id: "call_1",
        name: "get_weather",
        arguments: '{"city":"Paris"}',
        status: "completed",
      },
    ]);
    expect(firstBody.tools).toEqual([{ ...WEATHER_TOOL, strict: false }]);
    expect(test.runner.requests[0]?.clientTools).toEqual([
      { name: "get_weather", description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters },
    ]);

    const second = await test.post("/v1/responses", {
      previous_response_id: firstBody.id,
      tools: [WEATHER_TOOL],
      input: [{ type: "function_call_output", call_id: "call_1", output: "18C and sunny" }],
    });
    expect(second.status).toBe(200);
    expect(second.headers.get("x-toolsift-session")).toBe(session);
    const secondBody = (await second.json()) as ResponsesObject;
    expect(secondBody.output_text).toBe("tool said: 18C and sunny");
    expect(secondBody.previous_response_id).toBe(firstBody.id);
    expect(test.runner.requests[1]).toMatchObject({
      agentId: "main",
      sessionKey: session,
      input: [{ type: "function_call_output", callId: "call_1", output: "18C and sunny" }],
    });
  });

  it("follows previous_response_id to its agent, and refuses headers that contradict it", async () => {
    const test = await startTestGateway();
    const first = await test.post("/v1/responses", { input: "x" }, { "x-toolsift-agent": "helper" });
    const { id } = (await first.json()) as ResponsesObject;
    const follow = await test.post("/v1/responses", { input: "y", previous_response_id: id });
    expect(follow.status).toBe(200);
    expect(follow.headers.get("x-toolsift-agent")).toBe("helper");
    expect(test.runner.requests[1]?.sessionKey).toBe(first.headers.get("x-toolsift-session"));

    const otherSession = await test.post(
      "/v1/responses",
      { input: "y", previous_response_id: id },
      { "x-toolsift-session": "another" },
    );
    expect(otherSession.status).toBe(400);
    expect((await errorOf(otherSession)).param).toBe("x-toolsift-session");
    const otherAgent = await test.post(
      "/v1/responses",
      { input: "y", previous_response_id: id },
      { "x-toolsift-agent": "main" },
    );
    expect(otherAgent.status).toBe(400);
    expect((await errorOf(otherAgent)).param).toBe("x-toolsift-agent");
  });

  it("answers an unknown previous_response_id with a 404 error object", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", { input: "x", previous_response_id: "resp_nope" });
    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error).toMatchObject({ type: "not_found_error", param: "previous_response_id" });
    expect(error.message).toContain("resp_nope");
    expect(test.runner.requests).toHaveLength(0);
  });

  it("drops resent history when the session already has it", async () => {
    const test = await startTestGateway();
    const headers = { "x-toolsift-session": "resend" };
    await test.post("/v1/responses", { input: "first" }, headers);
    const response = await test.post(
      "/v1/responses",
      {
        input: [
          { role: "user", content: "first" },
          { role: "assistant", content: [{ type: "output_text", text: "echo: first" }] },
          { role: "user", content: "second" },
        ],
      },
      headers,
    );
    expect(response.status).toBe(200);
    expect(test.runner.requests[1]?.input).toEqual([{ type: "message", role: "user", text: "second" }]);
  });

  it("passes a whole conversation to a new session", async () => {
    const test = await startTestGateway();
    const input = [
      { role: "user", content: "first" },
      { type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: [{ type: "input_text", text: "rainy" }] },
    ];
    const response = await test.post("/v1/responses", { input, tools: [WEATHER_TOOL] });
    expect(response.status).toBe(200);
    expect(test.runner.requests[0]?.input).toEqual([
      { type: "message", role: "user", text: "first" },
      { type: "function_call", callId: "c1", name: "get_weather", arguments: "{}" },
      { type: "function_call_output", callId: "c1", output: "rainy" },
    ]);
  });

  it("reports a run cut short as incomplete", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", { input: "cut" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as ResponsesObject;
    expect(body.status).toBe("incomplete");
    expect(body.incomplete_details).toEqual({ reason: "turn_limit" });
    expect(body.output_text).toBe("partial");
  });

  it.each([
    ["PROVIDER_FAILED", 502, "server_error"],
    ["RUN_TIMEOUT", 504, "server_error"],
    ["NAME_CONFLICT", 400, "invalid_request_error"],
    ["CONFIG_INVALID", 500, "server_error"],
  ])("answers a run that failed with %s with %i and no stack lines", async (code, status, type) => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", { input: `fail:${code}` });
    expect(response.status).toBe(status);
    expect(response.headers.get("x-toolsift-session")).toMatch(/^fp-[0-9a-f]{24}$/u);
    const error = await errorOf(response);
    expect(error).toEqual({
      message: `${code} went wrong at the provider`,
      type,
      param: null,
      code: code.toLowerCase(),
    });
  });

  it("answers a runner exception with a generic 500 and logs the detail", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", { input: "throw" });
    expect(response.status).toBe(500);
    const error = await errorOf(response);
    expect(error).toMatchObject({ type: "server_error", code: "internal_error" });
    expect(error.message).not.toContain("exploded");
    expect(
      test.logs.some((line) => line.includes("runner exploded") && line.includes("POST /v1/responses")),
    ).toBe(true);
    const after = await test.post("/v1/responses", { input: "still alive" });
    expect(after.status).toBe(200);
  });

  it.each([
    ["missing input", {}, "input"],
    ["input of the wrong type", { input: 42 }, "input"],
    ["an empty input array", { input: [] }, "input"],
    ["only system messages", { input: [{ role: "system", content: "x" }] }, "input"],
    ["an unknown role", { input: [{ role: "robot", content: "x" }] }, "input[0].role"],
    [
      "an image part",
      { input: [{ role: "user", content: [{ type: "input_image", image_url: "x" }] }] },
      "input[0].content[0].type",
    ],
    ["an unknown item type", { input: [{ type: "bogus_item", summary: [] }] }, "input[0].type"],
    ["only items that are dropped", { input: [{ type: "reasoning", summary: [] }] }, "input"],
    [
      "a function_call_output without call_id",
      { input: [{ type: "function_call_output", output: "x" }] },
      "input[0].call_id",
    ],
    ["a tool without a type", { input: "x", tools: [{ name: "x" }] }, "tools[0].type"],
    [
      "a namespace without a name",
      { input: "x", tools: [{ type: "namespace", tools: [] }] },
      "tools[0].name",
    ],
    ["a tool without a name", { input: "x", tools: [{ type: "function" }] }, "tools[0].name"],
    [
      "a tool with a bad name",
      { input: "x", tools: [{ type: "function", name: "has space" }] },
      "tools[0].name",
    ],
    ["duplicate tools", { input: "x", tools: [WEATHER_TOOL, WEATHER_TOOL] }, "tools[1].name"],
    [
      "tool parameters that are not an object",
      { input: "x", tools: [{ ...WEATHER_TOOL, parameters: "x" }] },
      "tools[0].parameters",
    ],
    ["tools that are not an array", { input: "x", tools: {} }, "tools"],
    ["stream that is not a boolean", { input: "x", stream: "yes" }, "stream"],
    ["a bad input while streaming", { input: 5, stream: true }, "input"],
    ["tool_choice of the wrong type", { input: "x", tool_choice: 5 }, "tool_choice"],
    ["background: true", { input: "x", background: true }, "background"],
    ["max_output_tokens 0", { input: "x", max_output_tokens: 0 }, "max_output_tokens"],
    ["max_output_tokens 1.5", { input: "x", max_output_tokens: 1.5 }, "max_output_tokens"],
    ["instructions of the wrong type", { input: "x", instructions: ["a"] }, "instructions"],
    ["a model of the wrong type", { input: "x", model: 4 }, "model"],
    ["a JSON array body", [], null],
  ])("refuses %s with a 400 naming the param", async (_name, body, param) => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.type).toBe("invalid_request_error");
    expect(error.param).toBe(param);
    expect(test.runner.requests).toHaveLength(0);
  });

  it.each([
    ["x-toolsift-agent", "../etc"],
    ["x-toolsift-agent", ".hidden"],
    ["x-toolsift-session", "a/b"],
    ["x-toolsift-session", "..%2Fx"],
    ["x-toolsift-session", "x".repeat(129)],
  ])("refuses %s: %s with a 400", async (header, value) => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", { input: "x" }, { [header]: value });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).param).toBe(header);
    expect(test.runner.requests).toHaveLength(0);
  });

  it("answers an unknown agent with a 404 naming the configured agents", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", { input: "x" }, { "x-toolsift-agent": "ghost" });
    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error).toMatchObject({ type: "not_found_error", param: "x-toolsift-agent" });
    expect(error.message).toContain("main, helper");
  });
});

describe("POST /v1/responses through the official openai client", () => {
  it("round-trips a client tool call with previous_response_id", async () => {
    const test = await startTestGateway();
    const client = new OpenAI({ baseURL: `${test.url}/v1`, apiKey: "unused", maxRetries: 0 });
    const first = await client.responses.create({
      model: "ignored",
      input: "call:get_weather",
      tools: [{ ...WEATHER_TOOL, type: "function", strict: false }],
    });
    const call = first.output[0];
    expect(call?.type).toBe("function_call");
    if (call?.type !== "function_call") return;
    expect(call.name).toBe("get_weather");
    const second = await client.responses.create({
      model: "ignored",
      previous_response_id: first.id,
      input: [{ type: "function_call_output", call_id: call.call_id, output: "cloudy" }],
    });
    expect(second.output_text).toBe("tool said: cloudy");
    expect(test.runner.requests[1]?.sessionKey).toBe(test.runner.requests[0]?.sessionKey);
  });

  it("surfaces gateway errors as OpenAI API errors", async () => {
    const test = await startTestGateway();
    const client = new OpenAI({ baseURL: `${test.url}/v1`, apiKey: "unused", maxRetries: 0 });
    const failure = await client.responses
      .create({ model: "x", input: "x", previous_response_id: "resp_unknown" })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
    expect((failure as InstanceType<typeof OpenAI.NotFoundError>).param).toBe("previous_response_id");
  });
});
