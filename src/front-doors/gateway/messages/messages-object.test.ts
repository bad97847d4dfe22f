import { describe, expect, it } from "vitest";
import type { RunResult } from "../../../runtime/runner/index.js";
import { messagesUsage, toMessagesObject, toolUseInput } from "./messages-object.js";

const BASE: Omit<RunResult, "status" | "output" | "text"> = {
  runId: "run-1",
  agentId: "main",
  sessionKey: "s",
  model: "anthropic/claude-x",
  usage: { inputTokens: 10, outputTokens: 2 },
};

describe("toMessagesObject", () => {
  it("keeps the run's order of text and tool_use blocks, leaving out empty messages and the user's", () => {
    const message = toMessagesObject(
      {
        ...BASE,
        status: "requires_action",
        text: "Looking.",
        output: [
          { type: "message", role: "assistant", text: "Looking." },
          { type: "message", role: "assistant", text: "" },
          { type: "function_call", callId: "toolu_1", name: "find", arguments: '{"q":"x"}' },
          { type: "function_call", callId: "toolu_2", name: "find", arguments: "not json" },
        ],
      },
      "msg_1",
    );
    expect(message.content).toEqual([
      { type: "text", text: "Looking." },
      { type: "tool_use", id: "toolu_1", name: "find", input: { q: "x" } },
      { type: "tool_use", id: "toolu_2", name: "find", input: {} },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.id).toBe("msg_1");
  });

  it.each([
    ["completed", [], "end_turn"],
    ["incomplete", [], "max_tokens"],
    ["requires_action", [], "tool_use"],
  ] as const)("status %s → stop_reason %s", (status, output, reason) => {
    expect(toMessagesObject({ ...BASE, status, output: [...output], text: "" }, "msg_2").stop_reason).toBe(
      reason,
    );
  });
});

describe("messagesUsage", () => {
  it("takes cache reads and writes out of input_tokens, as Anthropic counts them", () => {
    expect(
      messagesUsage({
        inputTokens: 1000,
        outputTokens: 5,
        cacheReadInputTokens: 700,
        cacheCreationInputTokens: 200,
      }),
    ).toEqual({
      input_tokens: 100,
      output_tokens: 5,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 700,
    });
  });

  it("reports 0 cache tokens when the provider reported none, and never a negative input", () => {
    expect(messagesUsage({ inputTokens: 3, outputTokens: 1 })).toEqual({
      input_tokens: 3,
      output_tokens: 1,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    expect(messagesUsage({ inputTokens: 3, outputTokens: 1, cacheReadInputTokens: 9 }).input_tokens).toBe(0);
  });
});

describe("toolUseInput", () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ["", {}],
    ["[1,2]", {}],
    ["null", {}],
    ['"text"', {}],
    ["{broken", {}],
  ])("%j → %j", (args, input) => {
    expect(toolUseInput(args)).toEqual(input);
  });
});
