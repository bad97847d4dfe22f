import { describe, expect, it } from "vitest";
import { fromChatAnswer, toChatBody } from "./chat-mapping.js";
import type { ProviderRequest } from "./types.js";

const request = (input: ProviderRequest["input"], extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: "m",
  instructions: "system text",
  input,
  tools: [],
  ...extra,
});

describe("toChatBody", () => {
  it("merges the function calls of one turn into one assistant message, with the text before them", () => {
    const body = toChatBody(
      request([
        { type: "message", role: "user", text: "do two things" },
        { type: "message", role: "assistant", text: "on it" },
        { type: "function_call", callId: "c1", name: "a", arguments: "{}" },
        { type: "function_call", callId: "c2", name: "b", arguments: '{"x":1}' },
        { type: "function_call_output", callId: "c1", output: "A" },
        { type: "function_call_output", callId: "c2", output: "B" },
        { type: "function_call", callId: "c3", name: "a", arguments: "{}" },
        { type: "function_call_output", callId: "c3", output: "A2" },
        { type: "message", role: "assistant", text: "done" },
      ]),
      "max_tokens",
    );
    expect(body.messages).toEqual([
      { role: "system", content: "system text" },
      { role: "user", content: "do two things" },
      {
        role: "assistant",
        content: "on it",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "a", arguments: "{}" } },
          { id: "c2", type: "function", function: { name: "b", arguments: '{"x":1}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "A" },
      { role: "tool", tool_call_id: "c2", content: "B" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c3", type: "function", function: { name: "a", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c3", content: "A2" },
      { role: "assistant", content: "done" },
    ]);
  });

  it("keeps text that follows the calls of a turn on their message, so outputs still follow it", () => {
    const body = toChatBody(
      request([
        { type: "message", role: "user", text: "go" },
        { type: "function_call", callId: "c1", name: "a", arguments: "{}" },
        { type: "message", role: "assistant", text: "calling a" },
        { type: "function_call_output", callId: "c1", output: "A" },
      ]),
      "max_tokens",
    );
    expect(body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "calling a",
        tool_calls: [{ id: "c1", type: "function", function: { name: "a", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "A" },
    ]);
  });

  it("declares tools in the nested function form, leaves out an empty list, and caps output tokens", () => {
    const withTools = toChatBody(
      request([], {
        tools: [
          {
            name: "t",
            description: "d",
            parameters: { type: "object", properties: { a: { type: "string" } } },
          },
        ],
        maxOutputTokens: 50,
      }),
      "max_completion_tokens",
    );
    expect(withTools.tools).toEqual([
      {
        type: "function",
        function: {
          name: "t",
          description: "d",
          parameters: { type: "object", properties: { a: { type: "string" } } },
        },
      },
    ]);
    expect(withTools.max_completion_tokens).toBe(50);
    expect(withTools).not.toHaveProperty("max_tokens");
    const bare = toChatBody(request([], { instructions: "" }), "max_tokens");
    expect(bare).toEqual({ model: "m", messages: [] });
  });

  it("sends an empty object schema for a tool without usable parameters", () => {
    const body = toChatBody(
      request([], { tools: [{ name: "t", description: "", parameters: undefined }] }),
      "max_tokens",
    );
    expect(body.tools?.[0]).toEqual({
      type: "function",
      function: { name: "t", description: "", parameters: { type: "object", properties: {} } },
    });
  });
});

describe("fromChatAnswer", () => {
  it("reads the text, the tool calls (string or object arguments) and the usage", () => {
    const parsed = fromChatAnswer({
      choices: [
        {
          message: {
            role: "assistant",
            content: "thinking",
            tool_calls: [
              { id: "c1", type: "function", function: { name: "a", arguments: '{"q":1}' } },
              { id: "c2", type: "function", function: { name: "b", arguments: { q: 2 } } },
              { id: "c3", type: "custom", custom: { name: "x", input: "" } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 4 },
    });
    expect(parsed).toEqual({
      output: [
        { type: "message", role: "assistant", text: "thinking" },
        { type: "function_call", callId: "c1", name: "a", arguments: '{"q":1}' },
        { type: "function_call", callId: "c2", name: "b", arguments: '{"q":2}' },
      ],
      usage: { inputTokens: 12, outputTokens: 4 },
    });
  });

  it("reads cached prompt tokens from prompt_tokens_details", () => {
    const parsed = fromChatAnswer({
      choices: [{ message: { content: "hi" } }],
      usage: { prompt_tokens: 12, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 9 } },
    });
    expect(parsed?.usage).toEqual({ inputTokens: 12, outputTokens: 4, cacheReadInputTokens: 9 });
  });

  it("reads a refusal as the assistant's text and tolerates missing usage", () => {
    expect(fromChatAnswer({ choices: [{ message: { content: null, refusal: "I can't" } }] })).toEqual({
      output: [{ type: "message", role: "assistant", text: "I can't" }],
    });
  });

  it("returns undefined without a first choice", () => {
    expect(fromChatAnswer({ choices: [] })).toBeUndefined();
    expect(fromChatAnswer("nope")).toBeUndefined();
  });
});
