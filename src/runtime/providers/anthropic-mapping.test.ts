import { describe, expect, it } from "vitest";
import { fromMessagesAnswer, messagesUsage, toMessages, toMessagesBody } from "./anthropic-mapping.js";

describe("toMessages", () => {
  it("joins consecutive items of one role into one message, blocks in order", () => {
    expect(
      toMessages([
        { type: "message", role: "user", text: "first" },
        { type: "message", role: "user", text: "second" },
        { type: "function_call", callId: "a", name: "t", arguments: '{"x":1}' },
        { type: "message", role: "assistant", text: "after the call" },
        { type: "function_call_output", callId: "a", output: "done" },
        { type: "message", role: "user", text: "thanks" },
      ]),
    ).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "second" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "a", name: "t", input: { x: 1 } },
          { type: "text", text: "after the call" },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "a", content: "done" },
          { type: "text", text: "thanks" },
        ],
      },
    ]);
  });

  it("leaves out empty texts, sends an empty output without content and broken arguments as {}", () => {
    expect(
      toMessages([
        { type: "message", role: "user", text: "" },
        { type: "message", role: "user", text: "go" },
        { type: "message", role: "assistant", text: "" },
        { type: "function_call", callId: "a", name: "t", arguments: "{not json" },
        { type: "function_call", callId: "b", name: "t", arguments: "[1]" },
        { type: "function_call_output", callId: "a", output: "", isError: true },
        { type: "function_call_output", callId: "b", output: "ok" },
      ]),
    ).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "a", name: "t", input: {} },
          { type: "tool_use", id: "b", name: "t", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "a", is_error: true },
          { type: "tool_result", tool_use_id: "b", content: "ok" },
        ],
      },
    ]);
  });
});

describe("toMessagesBody", () => {
  it("puts cache breakpoints on the system block and the last tool only, and completes schemas", () => {
    const body = toMessagesBody({
      model: "m",
      instructions: "rules",
      input: [{ type: "message", role: "user", text: "hi" }],
      tools: [
        { name: "a", description: "A", parameters: null },
        { name: "b", description: "B", parameters: { properties: { x: { type: "string" } } } },
      ],
    });
    expect(body.system).toEqual([{ type: "text", text: "rules", cache_control: { type: "ephemeral" } }]);
    expect(body.tools).toEqual([
      { name: "a", description: "A", input_schema: { type: "object", properties: {} } },
      {
        name: "b",
        description: "B",
        input_schema: { type: "object", properties: { x: { type: "string" } } },
        cache_control: { type: "ephemeral" },
      },
    ]);
  });
});

describe("fromMessagesAnswer", () => {
  it("maps text and tool_use blocks, skips others, and reads pause_turn", () => {
    expect(
      fromMessagesAnswer({
        content: [
          { type: "thinking", thinking: "hmm", signature: "s" },
          { type: "text", text: "a" },
          { type: "text", text: "b" },
          { type: "tool_use", id: "t1", name: "x", input: { k: [1] } },
          { type: "server_tool_use", id: "s1", name: "web_search", input: {} },
          { type: "text", text: "" },
          { type: "text", text: "c" },
        ],
        stop_reason: "pause_turn",
      }),
    ).toEqual({
      output: [
        { type: "message", role: "assistant", text: "ab" },
        { type: "function_call", callId: "t1", name: "x", arguments: '{"k":[1]}' },
        { type: "message", role: "assistant", text: "c" },
      ],
      stop: "pause_turn",
    });
  });

  it.each(["end_turn", "max_tokens", "tool_use", "stop_sequence", "refusal", null])(
    "answers stop_reason %s with what it has",
    (stopReason) => {
      expect(
        fromMessagesAnswer({ content: [{ type: "text", text: "part" }], stop_reason: stopReason }),
      ).toEqual({ output: [{ type: "message", role: "assistant", text: "part" }], stop: "other" });
    },
  );

  it("returns undefined for an answer without a content list", () => {
    expect(fromMessagesAnswer({ choices: [] })).toBeUndefined();
    expect(fromMessagesAnswer(null)).toBeUndefined();
  });
});

describe("messagesUsage", () => {
  it("counts cache reads and writes into inputTokens and gives them apart", () => {
    expect(
      messagesUsage({
        input_tokens: 5,
        output_tokens: 2,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 20,
      }),
    ).toEqual({ inputTokens: 125, outputTokens: 2, cacheReadInputTokens: 100, cacheCreationInputTokens: 20 });
  });

  it("leaves the cache counts out when they are null or missing, and needs both token counts", () => {
    expect(messagesUsage({ input_tokens: 5, output_tokens: 2, cache_read_input_tokens: null })).toEqual({
      inputTokens: 5,
      outputTokens: 2,
    });
    expect(messagesUsage({ input_tokens: 5 })).toBeUndefined();
  });
});
