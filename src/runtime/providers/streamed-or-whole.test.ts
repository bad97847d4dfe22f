import { describe, expect, it, vi } from "vitest";
import { messagesReply } from "./anthropic-scripted.test-support.js";
import { createProvider } from "./create-provider.js";
import { chatReply, providerFailure, scriptedServers } from "./scripted-server.test-support.js";
import type { ProviderRequest, ProviderSettings } from "./types.js";

// Some OpenAI-compatible servers ignore `stream: true` and answer one JSON body: a streamed request reads
// it whole, as the same request without streaming would have.

const serve = scriptedServers();

function streamedRequest(deltas: string[]): ProviderRequest {
  return {
    model: "m",
    instructions: "",
    input: [{ type: "message", role: "user", text: "hello" }],
    tools: [],
    onTextDelta: (delta) => deltas.push(delta),
  };
}

const RESPONSES_ANSWER = {
  id: "resp_1",
  object: "response",
  status: "completed",
  output: [
    {
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "whole answer", annotations: [] }],
    },
    {
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "clock",
      arguments: "{}",
      status: "completed",
    },
  ],
  usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
};

const CASES: Array<[ProviderSettings["api"], Parameters<typeof serve>[0]]> = [
  ["openai-chat", chatReply("whole answer")],
  ["openai-responses", { status: 200, json: RESPONSES_ANSWER }],
  ["anthropic-messages", messagesReply([{ type: "text", text: "whole answer" }])],
];

describe("a streamed request answered with one JSON body (stream ignored)", () => {
  it.each(CASES)("%s: reads the answer whole, with its text and usage", async (api, reply) => {
    const { baseUrl, seen } = await serve(reply);
    const deltas: string[] = [];
    const provider = createProvider("local", { api, baseUrl, apiKey: "k", maxRetries: 0 });
    const response = await provider.complete(streamedRequest(deltas));
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0]?.body ?? "{}").stream).toBe(true);
    expect(response.output[0]).toEqual({ type: "message", role: "assistant", text: "whole answer" });
    expect(response.usage?.inputTokens).toBeGreaterThan(0);
    // Nothing was streamed: the runner tells the whole text itself.
    expect(deltas).toEqual([]);
  });

  it("openai-responses: keeps the function calls of the whole answer", async () => {
    const { baseUrl } = await serve({ status: 200, json: RESPONSES_ANSWER });
    const provider = createProvider("local", { api: "openai-responses", baseUrl, apiKey: "k" });
    const response = await provider.complete(streamedRequest([]));
    expect(response.output[1]).toEqual({
      type: "function_call",
      callId: "call_1",
      name: "clock",
      arguments: "{}",
    });
    expect(response.id).toBe("resp_1");
  });

  it.each(["openai-chat", "openai-responses", "anthropic-messages"] as const)(
    "%s: a JSON content type with a body that is not JSON is a malformed answer, not a crash",
    async (api) => {
      const { baseUrl } = await serve({
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8" },
        text: "not json {",
      });
      const provider = createProvider("local", { api, baseUrl, apiKey: "k", maxRetries: 0 });
      const error = await providerFailure(provider.complete(streamedRequest([])));
      expect(error.code).toBe("PROVIDER_FAILED");
      expect(error.message).toContain('Provider "local" sent an answer that is not a valid');
    },
  );

  it.each(["openai-chat", "openai-responses", "anthropic-messages"] as const)(
    "%s: the caller's abort while the JSON body arrives is CANCELLED",
    async (api) => {
      const { baseUrl, seen } = await serve({
        frames: ['{"id": "partial", '],
        ending: "hang",
        contentType: "application/json",
      });
      const controller = new AbortController();
      const provider = createProvider("local", { api, baseUrl, apiKey: "k", maxRetries: 0 });
      const pending = providerFailure(
        provider.complete({ ...streamedRequest([]), signal: controller.signal }),
      );
      await vi.waitFor(() => expect(seen).toHaveLength(1));
      controller.abort();
      expect((await pending).code).toBe("CANCELLED");
    },
  );
});
