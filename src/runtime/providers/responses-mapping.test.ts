import { describe, expect, it } from "vitest";
import { fromResponsesAnswer, responsesFailure, toResponsesBody } from "./responses-mapping.js";

describe("toResponsesBody", () => {
  it("maps instructions, every item kind, non-strict tools, store: false and the token cap", () => {
    const body = toResponsesBody({
      model: "gpt",
      instructions: "be brief",
      input: [
        { type: "message", role: "user", text: "hi" },
        { type: "function_call", callId: "c1", name: "a", arguments: "{}" },
        { type: "function_call_output", callId: "c1", output: "A" },
        { type: "message", role: "assistant", text: "ok" },
      ],
      tools: [{ name: "a", description: "does a", parameters: { type: "object" } }],
      maxOutputTokens: 99,
    });
    expect(body).toEqual({
      model: "gpt",
      instructions: "be brief",
      input: [
        { role: "user", content: "hi" },
        { type: "function_call", call_id: "c1", name: "a", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "A" },
        { role: "assistant", content: "ok" },
      ],
      store: false,
      tools: [
        { type: "function", name: "a", description: "does a", parameters: { type: "object" }, strict: false },
      ],
      max_output_tokens: 99,
    });
  });

  it("leaves out tools when there are none", () => {
    expect(toResponsesBody({ model: "m", instructions: "", input: [], tools: [] })).not.toHaveProperty(
      "tools",
    );
  });
});

describe("fromResponsesAnswer", () => {
  it("keeps messages and function calls in order, skips other items, reads usage", () => {
    const parsed = fromResponsesAnswer({
      output: [
        { type: "reasoning", id: "r1", summary: [] },
        {
          type: "message",
          role: "assistant",
          content: [
            { type: "output_text", text: "Hello ", annotations: [] },
            { type: "output_text", text: "there", annotations: [] },
          ],
        },
        { type: "function_call", call_id: "c1", name: "a", arguments: '{"x":1}' },
        { type: "message", role: "assistant", content: [{ type: "refusal", refusal: "no" }] },
        { type: "message", role: "assistant", content: [] },
      ],
      usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
    });
    expect(parsed).toEqual({
      output: [
        { type: "message", role: "assistant", text: "Hello there" },
        { type: "function_call", callId: "c1", name: "a", arguments: '{"x":1}' },
        { type: "message", role: "assistant", text: "no" },
      ],
      usage: { inputTokens: 10, outputTokens: 2 },
    });
  });

  it("reads cached input tokens from input_tokens_details, leaving out a 0", () => {
    const answer = (cached: number) => ({
      output: [],
      usage: { input_tokens: 10, output_tokens: 2, input_tokens_details: { cached_tokens: cached } },
    });
    expect(fromResponsesAnswer(answer(8))?.usage).toEqual({
      inputTokens: 10,
      outputTokens: 2,
      cacheReadInputTokens: 8,
    });
    expect(fromResponsesAnswer(answer(0))?.usage).toEqual({ inputTokens: 10, outputTokens: 2 });
  });

  it("returns undefined without an output list", () => {
    expect(fromResponsesAnswer({ id: "resp" })).toBeUndefined();
  });
});

describe("responsesFailure", () => {
  it("reports the provider's message only for a failed response", () => {
    expect(responsesFailure({ status: "failed", error: { message: "overloaded" } })).toBe("overloaded");
    expect(responsesFailure({ status: "failed" })).toBe("the response failed");
    expect(responsesFailure({ status: "completed", output: [] })).toBeUndefined();
  });
});
