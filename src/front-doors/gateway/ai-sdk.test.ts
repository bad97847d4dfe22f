import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText, type ToolSet, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestGateway } from "./gateway.test-support.js";

// The Vercel AI SDK (ai@6, @ai-sdk/openai@3, @ai-sdk/anthropic@3) against a real gateway on 127.0.0.1 over the
// FakeRunner, through both of its OpenAI models, `openai.responses(…)` (Responses API) and `openai.chat(…)`
// (Chat Completions), and its Anthropic model, `anthropic(…)` (Messages API, the gateway's `/v1/messages`).

/** A client tool (no `execute`): the SDK hands its calls back to the caller. */
const tools: ToolSet = {
  get_weather: tool({ description: "Weather for a city.", inputSchema: z.object({ city: z.string() }) }),
};

async function providerFor() {
  const test = await startTestGateway({ emitEvents: true });
  const openai = createOpenAI({ baseURL: `${test.url}/v1`, apiKey: "unused-on-loopback" });
  const anthropic = createAnthropic({ baseURL: `${test.url}/v1`, apiKey: "unused-on-loopback" });
  return {
    test,
    models: {
      responses: openai.responses("toolsift"),
      chat: openai.chat("toolsift"),
      anthropic: anthropic("toolsift"),
    },
  };
}

describe.each(["responses", "chat", "anthropic"] as const)("the AI SDK through the %s model", (api) => {
  it("generateText answers with the run's text and usage", async () => {
    const { models } = await providerFor();
    const result = await generateText({ model: models[api], prompt: "hello", maxRetries: 0 });
    expect(result.text).toBe("echo: hello");
    expect(result.finishReason).toBe("stop");
    expect(result.usage.inputTokens).toBe(11);
    expect(result.usage.outputTokens).toBe(7);
  });

  it("streamText streams the deltas as they come and ends with the whole text", async () => {
    const { models } = await providerFor();
    const result = streamText({ model: models[api], prompt: "deltas:Stream|ing |works", maxRetries: 0 });
    const parts: string[] = [];
    for await (const part of result.textStream) parts.push(part);
    expect(parts).toEqual(["Stream", "ing ", "works"]);
    expect(await result.text).toBe("Streaming works");
    expect(await result.finishReason).toBe("stop");
  });

  it("gets a client tool call back from generateText and streamText", async () => {
    const { models } = await providerFor();
    const generated = await generateText({
      model: models[api],
      prompt: "call:get_weather",
      tools,
      maxRetries: 0,
    });
    expect(generated.finishReason).toBe("tool-calls");
    expect(generated.toolCalls).toEqual([
      expect.objectContaining({ toolName: "get_weather", input: { city: "Paris" } }),
    ]);
    const streamed = streamText({
      model: models[api],
      prompt: "call:get_weather",
      tools,
      maxRetries: 0,
    });
    expect(await streamed.toolCalls).toEqual([
      expect.objectContaining({ toolName: "get_weather", input: { city: "Paris" } }),
    ]);
    expect(await streamed.finishReason).toBe("tool-calls");
  });

  it("streamText reports a run that fails mid-stream as an error part", async () => {
    const { models } = await providerFor();
    const errors: unknown[] = [];
    const result = streamText({
      model: models[api],
      prompt: "fail-after-text:PROVIDER_FAILED",
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(parts).toContain("error");
    expect(JSON.stringify(errors)).toContain("the provider failed after a partial answer");
  });
});
