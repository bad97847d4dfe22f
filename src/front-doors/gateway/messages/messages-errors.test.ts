import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { startTestGateway } from "../gateway.test-support.js";
import { anthropicError, sdkError } from "./anthropic-error.test-support.js";

// Every refusal and failure of `POST /v1/messages` in Anthropic's error shape with its status, read by the
// official `@anthropic-ai/sdk` client where it reads errors (and off the wire where the exact body matters).
// The guard's refusals (token, Origin, Host, content type): messages-guard.test.ts.

const BODY = { model: "toolsift", max_tokens: 64, messages: [{ role: "user", content: "hi" }] };

describe("POST /v1/messages: bad requests are 400 invalid_request_error naming the field", () => {
  const user = (content: unknown) => ({ ...BODY, messages: [{ role: "user", content }] });
  it.each([
    ["a body that is not an object", [], "must be a JSON object"],
    ["no messages", { model: "toolsift", max_tokens: 5 }, "messages is required"],
    ["a tool role", { ...BODY, messages: [{ role: "tool", content: "x" }] }, "messages[0].role"],
    ["an unknown block", user([{ type: "hologram", source: {} }]), 'messages[0].content[0].type "hologram"'],
    [
      "a thinking block in a user message",
      user([{ type: "thinking", thinking: "x" }]),
      'messages[0].content[0].type "thinking"',
    ],
    [
      "an image block in an assistant message",
      {
        ...BODY,
        messages: [
          { role: "user", content: "x" },
          { role: "assistant", content: [{ type: "image", source: {} }] },
        ],
      },
      'messages[1].content[0].type "image"',
    ],
    [
      "a tool_reference without tool_name",
      user([{ type: "tool_result", tool_use_id: "t", content: [{ type: "tool_reference" }] }]),
      "messages[0].content[0].content[0].tool_name",
    ],
    ["a block without type", user([{ text: "x" }]), "messages[0].content[0] must be a content block"],
    [
      "a tool_result without tool_use_id",
      user([{ type: "tool_result", content: "x" }]),
      "messages[0].content[0].tool_use_id",
    ],
    [
      "is_error that is not a boolean",
      user([{ type: "tool_result", tool_use_id: "t", is_error: "yes" }]),
      "is_error must be true or false",
    ],
    [
      "a tool_use input that is not an object",
      {
        ...BODY,
        messages: [
          { role: "user", content: "x" },
          { role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: [1] }] },
        ],
      },
      "messages[1].content[0].input must be an object",
    ],
    ["an image in system", { ...BODY, system: [{ type: "image" }] }, 'system[0].type "image"'],
    [
      "a tool type that is not a string",
      { ...BODY, tools: [{ type: 7, name: "f" }] },
      "tools[0].type must be",
    ],
    [
      "defer_loading that is not a boolean",
      { ...BODY, tools: [{ name: "f", defer_loading: "yes" }] },
      "tools[0].defer_loading must be true or false",
    ],
    ["mcp_servers that is not an array", { ...BODY, mcp_servers: {} }, "mcp_servers must be an array"],
    ["a tool without a name", { ...BODY, tools: [{ input_schema: { type: "object" } }] }, "tools[0].name"],
    ["a bad tool name", { ...BODY, tools: [{ name: "a b" }] }, "tools[0].name must be 1-64"],
    ["a schema that is not an object", { ...BODY, tools: [{ name: "f", input_schema: 1 }] }, "input_schema"],
    ["duplicate tools", { ...BODY, tools: [{ name: "f" }, { name: "f" }] }, 'declares "f" twice'],
    ["tool_choice of an unknown type", { ...BODY, tool_choice: { type: "some" } }, 'tool_choice type "some"'],
    ["tool_choice as a string", { ...BODY, tool_choice: "auto" }, 'tool_choice "auto" is not one of'],
    ["tool_choice tool without a name", { ...BODY, tool_choice: { type: "tool" } }, "tool_choice.name"],
    [
      "disable_parallel_tool_use that is not a boolean",
      { ...BODY, tool_choice: { type: "auto", disable_parallel_tool_use: 1 } },
      "tool_choice.disable_parallel_tool_use",
    ],
    [
      "stop_sequences of numbers",
      { ...BODY, stop_sequences: [1] },
      "stop_sequences must be an array of strings",
    ],
    ["stream that is not a boolean", { ...BODY, stream: "yes" }, "stream must be true or false"],
    ["max_tokens 0", { ...BODY, max_tokens: 0 }, "max_tokens must be a positive integer"],
    ["model toolsift/", { ...BODY, model: "toolsift/" }, "names no agent"],
  ])("%s", async (_name, body, fragment) => {
    const test = await startTestGateway();
    const response = await test.post("/v1/messages", body);
    expect(response.status).toBe(400);
    const error = await anthropicError(response);
    expect(error.type).toBe("invalid_request_error");
    expect(error.message).toContain(fragment);
    expect(test.runner.requests).toHaveLength(0);
  });
});

describe("POST /v1/messages: refusals and failures with Anthropic's types and statuses", () => {
  it("invalid JSON, too-deep JSON and a body over the cap", async () => {
    const test = await startTestGateway({ maxBodyBytes: 4096 });
    const invalid = await test.post("/v1/messages", "{bad");
    expect(invalid.status).toBe(400);
    expect(await anthropicError(invalid)).toMatchObject({ type: "invalid_request_error" });
    const deep = await test.post("/v1/messages", `${"[".repeat(80)}${"]".repeat(80)}`);
    expect(deep.status).toBe(400);
    expect((await anthropicError(deep)).message).toContain("deeper than 64 levels");
    const large = await test.post("/v1/messages", { ...BODY, system: "x".repeat(5000) });
    expect(large.status).toBe(413);
    expect(await anthropicError(large)).toMatchObject({ type: "request_too_large" });
  });

  it("405 for GET /v1/messages and 404 under /v1/messages, both in Anthropic's shape", async () => {
    const test = await startTestGateway();
    const get = await test.get("/v1/messages");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await anthropicError(get)).toMatchObject({ type: "invalid_request_error" });
    const batches = await test.post("/v1/messages/batches", BODY);
    expect(batches.status).toBe(404);
    expect(await anthropicError(batches)).toMatchObject({ type: "not_found_error" });
    const getCount = await test.get("/v1/messages/count_tokens");
    expect(getCount.status).toBe(405);
    expect(getCount.headers.get("allow")).toBe("POST");
    expect(await anthropicError(getCount)).toMatchObject({ type: "invalid_request_error" });
    // The OpenAI routes keep their shape.
    const other = await test.post("/v1/chat/completions", "{bad");
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
  });

  it.each([
    ["an unknown agent", { model: "toolsift/nobody" }, 404, "not_found_error", "configured agents are main"],
    ["a provider that failed", { content: "fail:PROVIDER_FAILED" }, 502, "api_error", "went wrong"],
    ["a run that timed out", { content: "fail:RUN_TIMEOUT" }, 504, "timeout_error", "RUN_TIMEOUT"],
    ["storage unavailable", { content: "fail:STORAGE_UNAVAILABLE" }, 503, "overloaded_error", "STORAGE"],
    ["a tool name conflict", { content: "fail:NAME_CONFLICT" }, 400, "invalid_request_error", "NAME"],
    ["a runner that throws", { content: "throw" }, 500, "api_error", "internal error"],
  ] as const)("%s → %i %s (the SDK raises it)", async (_name, change, status, type, fragment) => {
    const test = await startTestGateway();
    const client = new Anthropic({ baseURL: test.url, apiKey: "unused", maxRetries: 0 });
    const error = await sdkError(
      client.messages.create({
        ...BODY,
        model: "model" in change ? change.model : "toolsift",
        messages: [{ role: "user", content: "content" in change ? change.content : "hi" }],
      }),
    );
    expect(error.status).toBe(status);
    expect(error.type).toBe(type);
    expect(error.error).toEqual({
      type: "error",
      error: { type, message: expect.stringContaining(fragment) },
    });
    expect(JSON.stringify(error.error)).not.toMatch(/\.js:\d+|\/secret\/path/u);
  });

  it("a full session queue is 429 rate_limit_error with Retry-After; a draining gateway 503 overloaded_error", async () => {
    const test = await startTestGateway({ maxQueuedPerSession: 0 });
    const session = { "x-toolsift-session": "busy" };
    const held = test.post(
      "/v1/messages",
      { ...BODY, messages: [{ role: "user", content: "hold:b" }] },
      session,
    );
    await test.runner.started("hold:b");
    const busy = await test.post("/v1/messages", BODY, session);
    expect(busy.status).toBe(429);
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(await anthropicError(busy)).toMatchObject({ type: "rate_limit_error" });
    test.runner.release("hold:b");
    expect((await held).status).toBe(200);
    await test.gateway.drain(1_000);
    const draining = await test.post("/v1/messages", BODY);
    expect(draining.status).toBe(503);
    expect(await anthropicError(draining)).toMatchObject({ type: "overloaded_error" });
  });

  it("a run that fails mid-stream ends with an error event the SDK raises; a runner's detail stays in the log", async () => {
    const test = await startTestGateway({ emitEvents: true });
    const client = new Anthropic({ baseURL: test.url, apiKey: "unused", maxRetries: 0 });
    const ask = (content: string) =>
      client.messages.stream({ ...BODY, messages: [{ role: "user", content }] }).finalMessage();
    const failed = await sdkError(ask("fail-after-text:PROVIDER_FAILED"));
    expect(failed.type).toBe("api_error");
    expect(failed.error).toEqual({
      type: "error",
      error: { type: "api_error", message: "PROVIDER_FAILED: the provider failed after a partial answer" },
    });
    const thrown = await sdkError(ask("throw-after-text"));
    expect(thrown.error).toEqual({
      type: "error",
      error: { type: "api_error", message: expect.stringContaining("internal error") },
    });
    expect(JSON.stringify(thrown.error)).not.toContain("/secret/path");
    expect(test.logs.join("\n")).toContain("runner exploded at /secret/path/runner.js");
    const raw = await test.post("/v1/messages", {
      ...BODY,
      messages: [{ role: "user", content: "fail-after-text:PROVIDER_FAILED" }],
      stream: true,
    });
    expect(raw.status).toBe(200);
    expect(await raw.text()).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"api_error",/u);
  });
});
