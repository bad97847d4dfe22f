import { describe, expect, it } from "vitest";
import { createProvider } from "./create-provider.js";
import {
  chatChunk,
  dataFrame,
  errorReply,
  namedEvent,
  providerFailure,
  scriptedServers,
} from "./scripted-server.test-support.js";
import type { ProviderRequest, ProviderSettings } from "./types.js";

const serve = scriptedServers();

function provider(api: ProviderSettings["api"], baseUrl: string, settings: Partial<ProviderSettings> = {}) {
  return createProvider("local", { api, baseUrl, ...settings });
}

/** A streamed request; its handed-on pieces are collected in `deltas`. */
function streamedRequest(deltas: string[], signal?: AbortSignal): ProviderRequest {
  return {
    model: "m",
    instructions: "",
    input: [{ type: "message", role: "user", text: "hello" }],
    tools: [],
    onTextDelta: (delta) => deltas.push(delta),
    ...(signal ? { signal } : {}),
  };
}

const failure = providerFailure;

const RESPONSE = { id: "resp_1", object: "response", status: "in_progress", output: [], usage: null };
const MESSAGE = { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] };
const TEXT_PLACE = { item_id: "msg_1", output_index: 0, content_index: 0 };

/** The opening of a Responses stream up to two text deltas, numbered from 0. */
const RESPONSES_OPENING = [
  namedEvent("response.created", { sequence_number: 0, response: RESPONSE }),
  namedEvent("response.output_item.added", { sequence_number: 1, output_index: 0, item: MESSAGE }),
  namedEvent("response.content_part.added", {
    sequence_number: 2,
    ...TEXT_PLACE,
    part: { type: "output_text", text: "", annotations: [] },
  }),
  namedEvent("response.output_text.delta", { sequence_number: 3, ...TEXT_PLACE, delta: "Hel" }),
  namedEvent("response.output_text.delta", { sequence_number: 4, ...TEXT_PLACE, delta: "lo" }),
];

const CHAT_OPENING = [
  chatChunk({ role: "assistant", content: "" }),
  chatChunk({ content: "Hel" }),
  chatChunk({ content: "lo" }),
];

const OPENINGS: Array<[ProviderSettings["api"], string, string[]]> = [
  ["openai-responses", "Responses API", RESPONSES_OPENING],
  ["openai-chat", "Chat Completions", CHAT_OPENING],
];

describe.each(OPENINGS)("createProvider (%s) streaming failures", (api, apiName, opening) => {
  it("a connection cut mid-stream is a clear error, and nothing is retried once text was handed on", async () => {
    const { baseUrl, seen } = await serve({ frames: opening, ending: "cut" });
    const deltas: string[] = [];
    const error = await failure(provider(api, baseUrl, { maxRetries: 2 }).complete(streamedRequest(deltas)));
    expect(deltas).toEqual(["Hel", "lo"]);
    expect(seen).toHaveLength(1);
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toMatch(
      new RegExp(
        `^Provider "local" broke off its ${apiName} stream before the answer was complete \\(terminated[^)]*\\)\\. Retry the request; if it keeps happening, check the server at ${baseUrl.replaceAll(".", "\\.")}\\.$`,
        "u",
      ),
    );
  });

  it("a stream that ends cleanly without its final event is an incomplete answer", async () => {
    const { baseUrl, seen } = await serve({ frames: opening, ending: "end" });
    const error = await failure(provider(api, baseUrl).complete(streamedRequest([])));
    expect(seen).toHaveLength(1);
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toBe(
      `Provider "local" ended its ${apiName} stream before ${
        api === "openai-responses" ? "its final event (response.completed)" : "a chunk with its finish_reason"
      }, so the answer is incomplete. Retry the request; if it keeps happening, check the server at ${baseUrl}.`,
    );
  });

  it("an abort while the stream hangs open rejects at once with CANCELLED", async () => {
    const { baseUrl } = await serve({ frames: opening, ending: "hang" });
    const controller = new AbortController();
    const deltas: string[] = [];
    // A long timeout: only the abort can end this request within the test's time.
    const pending = provider(api, baseUrl, { timeoutMs: 600_000 }).complete(
      streamedRequest(deltas, controller.signal),
    );
    while (deltas.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await failure(pending);
    expect(error.code).toBe("CANCELLED");
    expect(error.message).toBe('The request to provider "local" was cancelled.');
    expect(deltas).toEqual(["Hel", "lo"]);
  });

  it("a stream that goes quiet for timeoutMs is given up with a message naming the limit", async () => {
    const { baseUrl, seen } = await serve({ frames: opening, ending: "hang" });
    const deltas: string[] = [];
    const error = await failure(
      provider(api, baseUrl, { timeoutMs: 300, maxRetries: 2 }).complete(streamedRequest(deltas)),
    );
    expect(deltas).toEqual(["Hel", "lo"]);
    expect(seen).toHaveLength(1);
    expect(error.message).toBe(
      `Provider "local" sent nothing for 300 ms in the middle of its streamed answer. Check that ${baseUrl} is up, or raise models.providers.local.timeoutMs.`,
    );
  });

  it("retries an error status before the stream starts, then streams", async () => {
    const finished =
      api === "openai-responses"
        ? [
            ...opening,
            namedEvent("response.completed", {
              sequence_number: 5,
              response: {
                ...RESPONSE,
                status: "completed",
                output: [
                  {
                    ...MESSAGE,
                    status: "completed",
                    content: [{ type: "output_text", text: "Hello", annotations: [] }],
                  },
                ],
                usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
              },
            }),
          ]
        : [
            ...opening,
            chatChunk({}, "stop"),
            dataFrame({
              id: "chatcmpl-1",
              object: "chat.completion.chunk",
              created: 0,
              model: "m",
              choices: [],
              usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
            }),
            dataFrame("[DONE]"),
          ];
    const { baseUrl, seen } = await serve(errorReply(503, "busy", { "retry-after": "0" }), {
      frames: finished,
      ending: "end",
    });
    const deltas: string[] = [];
    const response = await provider(api, baseUrl).complete(streamedRequest(deltas));
    expect(seen).toHaveLength(2);
    expect(seen[1]?.body).toBe(seen[0]?.body);
    expect(deltas).toEqual(["Hel", "lo"]);
    expect(response).toEqual({
      output: [{ type: "message", role: "assistant", text: "Hello" }],
      usage: { inputTokens: 5, outputTokens: 2 },
      requestBytes: Buffer.byteLength(seen[1]?.body ?? "", "utf8"),
      // The provider's own id of the response, for traces (gen_ai.response.id).
      id: api === "openai-responses" ? "resp_1" : "chatcmpl-1",
    });
  });
});

describe("createProvider (openai-responses) streamed failure events", () => {
  const responses = (baseUrl: string) => provider("openai-responses", baseUrl, { apiKey: "sk-secret-4242" });

  it("response.failed is the same error as a failed non-stream answer, with the key removed", async () => {
    const { baseUrl } = await serve({
      frames: [
        ...RESPONSES_OPENING,
        namedEvent("response.failed", {
          sequence_number: 5,
          response: {
            ...RESPONSE,
            status: "failed",
            error: { code: "server_error", message: "model crashed near sk-secret-4242" },
          },
        }),
      ],
      ending: "end",
    });
    const error = await failure(responses(baseUrl).complete(streamedRequest([])));
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toBe('Provider "local" failed: model crashed near [REDACTED]');
  });

  it("an error event is a failure with the provider's message", async () => {
    const { baseUrl } = await serve({
      frames: [
        namedEvent("response.created", { sequence_number: 0, response: RESPONSE }),
        namedEvent("error", {
          sequence_number: 1,
          code: "rate_limit_exceeded",
          message: "Too many tokens.",
          param: null,
        }),
      ],
      ending: "hang",
    });
    const error = await failure(responses(baseUrl).complete(streamedRequest([])));
    expect(error.message).toBe('Provider "local" failed: Too many tokens.');
  });

  it("response.incomplete resolves with the partial answer, as an incomplete non-stream answer does", async () => {
    const partial = {
      ...RESPONSE,
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      output: [
        {
          ...MESSAGE,
          status: "incomplete",
          content: [{ type: "output_text", text: "Hello", annotations: [] }],
        },
      ],
      usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
    };
    const { baseUrl } = await serve(
      { status: 200, json: partial },
      {
        frames: [
          ...RESPONSES_OPENING,
          namedEvent("response.incomplete", { sequence_number: 5, response: partial }),
        ],
        ending: "end",
      },
    );
    const { onTextDelta: _streamed, ...plain } = streamedRequest([]);
    const whole = await responses(baseUrl).complete(plain);
    const streamed = await responses(baseUrl).complete(streamedRequest([]));
    expect(streamed.output).toEqual([{ type: "message", role: "assistant", text: "Hello" }]);
    expect(streamed.output).toEqual(whole.output);
    expect(streamed.usage).toEqual(whole.usage);
  });
});

describe("createProvider (openai-chat) streamed failure chunks", () => {
  it("an error chunk (as vLLM and Ollama send) is a failure with its message", async () => {
    const { baseUrl } = await serve({
      frames: [
        ...CHAT_OPENING,
        dataFrame({ error: { message: "The model overloaded.", type: "server_error" } }),
      ],
      ending: "hang",
    });
    const deltas: string[] = [];
    const error = await failure(provider("openai-chat", baseUrl).complete(streamedRequest(deltas)));
    expect(deltas).toEqual(["Hel", "lo"]);
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toBe('Provider "local" failed: The model overloaded.');
  });

  it("gathers tool calls by index from pieces, without usage when the server sends none", async () => {
    const { baseUrl } = await serve({
      frames: [
        chatChunk({ role: "assistant", content: null }),
        chatChunk({
          tool_calls: [
            { index: 1, id: "call_b", type: "function", function: { name: "clock", arguments: "" } },
          ],
        }),
        chatChunk({
          tool_calls: [
            { index: 0, id: "call_a", type: "function", function: { name: "weather", arguments: '{"ci' } },
          ],
        }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"qa"}' } }] }),
        chatChunk({ tool_calls: [{ index: 1, function: { arguments: "{}" } }] }),
        chatChunk({}, "tool_calls"),
        dataFrame("[DONE]"),
      ],
      ending: "end",
    });
    const deltas: string[] = [];
    const response = await provider("openai-chat", baseUrl).complete(streamedRequest(deltas));
    expect(deltas).toEqual([]);
    expect(response.output).toEqual([
      { type: "function_call", callId: "call_a", name: "weather", arguments: '{"city":"qa"}' },
      { type: "function_call", callId: "call_b", name: "clock", arguments: "{}" },
    ]);
    expect(response.usage).toBeUndefined();
  });
});
