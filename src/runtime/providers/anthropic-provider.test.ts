import { describe, expect, it } from "vitest";
import {
  anthropicErrorReply,
  messagesAnswer,
  messagesReply,
  messagesStreamFrames,
  type ScriptedBlock,
} from "./anthropic-scripted.test-support.js";
import { createProvider } from "./create-provider.js";
import { providerFailure, scriptedServers } from "./scripted-server.test-support.js";
import type { ProviderRequest, ProviderSettings } from "./types.js";

const KEY = "sk-ant-test-4f1c9e";

const serve = scriptedServers();

function provider(baseUrl: string, settings: Partial<ProviderSettings> = {}) {
  return createProvider("claude", { api: "anthropic-messages", baseUrl, apiKey: KEY, ...settings });
}

const failure = providerFailure;

const WEATHER = {
  name: "weather",
  description: "The forecast for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const CLOCK = { name: "clock", description: "The time.", parameters: { properties: {} } };

/** A second turn: a user question, two calls of one assistant turn, their outputs (one failed). */
const ROUND_TRIP: ProviderRequest = {
  model: "claude-test",
  instructions: "You are terse.\n\n### Deferred Tool Schemas\n- weather",
  input: [
    { type: "message", role: "user", text: "Weather in Berlin and the time?" },
    { type: "message", role: "assistant", text: "Checking both." },
    { type: "function_call", callId: "toolu_1", name: "weather", arguments: '{"city":"Berlin"}' },
    { type: "function_call", callId: "toolu_2", name: "clock", arguments: "{}" },
    { type: "function_call_output", callId: "toolu_1", output: "sunny" },
    { type: "function_call_output", callId: "toolu_2", output: "clock is down", isError: true },
  ],
  tools: [WEATHER, CLOCK],
};

const ANSWER_BLOCKS: ScriptedBlock[] = [
  { type: "text", text: "Sunny; " },
  { type: "text", text: "the clock failed. Retrying." },
  { type: "tool_use", id: "toolu_3", name: "clock", input: { zone: "CET" } },
];

const EXPECTED_OUTPUT = [
  { type: "message", role: "assistant", text: "Sunny; the clock failed. Retrying." },
  { type: "function_call", callId: "toolu_3", name: "clock", arguments: '{"zone":"CET"}' },
];

const EXPECTED_USAGE = {
  inputTokens: 11 + 300 + 1200,
  outputTokens: 7,
  cacheReadInputTokens: 1200,
  cacheCreationInputTokens: 300,
};

describe("createProvider (anthropic-messages): a tool round trip", () => {
  it("sends system, tools and the conversation as Messages with cache breakpoints, and maps the answer", async () => {
    const scripted = await serve(messagesReply(ANSWER_BLOCKS, "tool_use"));
    const response = await provider(scripted.baseUrl).complete(ROUND_TRIP);

    expect(response.output).toEqual(EXPECTED_OUTPUT);
    expect(response.usage).toEqual(EXPECTED_USAGE);
    const [seen] = scripted.seen;
    // A base URL ending in /v1 (as for the OpenAI providers) is not doubled.
    expect(seen?.url).toBe("/v1/messages");
    // The client of this SDK version sends the key as a bearer token.
    expect(seen?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen?.headers["anthropic-version"]).toEqual(expect.any(String));
    expect(response.requestBytes).toBe(Buffer.byteLength(seen?.body ?? "", "utf8"));
    expect(JSON.parse(seen?.body ?? "")).toEqual({
      model: "claude-test",
      max_tokens: 4096,
      system: [{ type: "text", text: ROUND_TRIP.instructions, cache_control: { type: "ephemeral" } }],
      tools: [
        { name: "weather", description: WEATHER.description, input_schema: WEATHER.parameters },
        {
          name: "clock",
          description: "The time.",
          input_schema: { type: "object", properties: {} },
          cache_control: { type: "ephemeral" },
        },
      ],
      messages: [
        { role: "user", content: [{ type: "text", text: "Weather in Berlin and the time?" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking both." },
            { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Berlin" } },
            { type: "tool_use", id: "toolu_2", name: "clock", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "sunny" },
            { type: "tool_result", tool_use_id: "toolu_2", content: "clock is down", is_error: true },
          ],
        },
      ],
    });
  });

  it("sends maxOutputTokens as max_tokens and leaves out an empty system prompt and no tools", async () => {
    const scripted = await serve(messagesReply([{ type: "text", text: "hi" }]));
    await provider(scripted.baseUrl).complete({
      model: "m",
      instructions: "",
      input: [{ type: "message", role: "user", text: "hello" }],
      tools: [],
      maxOutputTokens: 64,
    });
    expect(JSON.parse(scripted.seen[0]?.body ?? "")).toEqual({
      model: "m",
      max_tokens: 64,
      messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
    });
  });
});

describe("createProvider (anthropic-messages): streaming", () => {
  it("hands text_delta pieces on in order and resolves with the non-stream answer", async () => {
    const scripted = await serve(
      { frames: messagesStreamFrames(ANSWER_BLOCKS, { stopReason: "tool_use" }), ending: "end" },
      messagesReply(ANSWER_BLOCKS, "tool_use"),
    );
    const deltas: string[] = [];
    const streamed = await provider(scripted.baseUrl).complete({
      ...ROUND_TRIP,
      onTextDelta: (delta) => deltas.push(delta),
    });
    const whole = await provider(scripted.baseUrl).complete(ROUND_TRIP);

    expect(deltas).toEqual(["Sunny; ", "the ", "clock ", "failed. ", "Retrying."]);
    expect(streamed.output).toEqual(whole.output);
    expect(streamed.usage).toEqual(whole.usage);
    expect(JSON.parse(scripted.seen[0]?.body ?? "")).toMatchObject({ stream: true });
    expect(streamed.requestBytes).toBe(Buffer.byteLength(scripted.seen[0]?.body ?? "", "utf8"));
  });

  it("fails clearly when the stream ends before message_stop, and is not retried", async () => {
    const scripted = await serve({
      frames: messagesStreamFrames([{ type: "text", text: "cut short" }], { withoutStop: true }),
      ending: "end",
    });
    const error = await failure(
      provider(scripted.baseUrl, { maxRetries: 2 }).complete({ ...ROUND_TRIP, onTextDelta: () => {} }),
    );
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toBe(
      `Provider "claude" ended its Anthropic Messages stream before its final event (message_stop), so the answer is incomplete. Retry the request; if it keeps happening, check the server at ${scripted.baseUrl}.`,
    );
    expect(scripted.seen).toHaveLength(1);
  });

  it("reports an error event in the stream in the provider's words", async () => {
    const scripted = await serve({
      frames: [
        ...messagesStreamFrames([{ type: "text", text: "partial" }]).slice(0, 3),
        `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}\n\n`,
      ],
      ending: "end",
    });
    const error = await failure(
      provider(scripted.baseUrl).complete({ ...ROUND_TRIP, onTextDelta: () => {} }),
    );
    expect(error.message).toBe('Provider "claude" failed: Overloaded');
  });

  it("cancels a stream mid-way with CANCELLED and hands on nothing after the abort", async () => {
    const scripted = await serve({ frames: messagesStreamFrames(ANSWER_BLOCKS).slice(0, 3), ending: "hang" });
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = provider(scripted.baseUrl).complete({
      ...ROUND_TRIP,
      signal: controller.signal,
      onTextDelta: (delta) => {
        deltas.push(delta);
        controller.abort();
      },
    });
    const error = await failure(pending);
    expect(error.code).toBe("CANCELLED");
    expect(error.message).toBe('The request to provider "claude" was cancelled.');
    expect(deltas).toEqual(["Sunny; "]);
  });

  it("gives up a stream that goes quiet for timeoutMs", async () => {
    const scripted = await serve({ frames: messagesStreamFrames(ANSWER_BLOCKS).slice(0, 3), ending: "hang" });
    const error = await failure(
      provider(scripted.baseUrl, { timeoutMs: 300 }).complete({ ...ROUND_TRIP, onTextDelta: () => {} }),
    );
    expect(error.message).toBe(
      `Provider "claude" sent nothing for 300 ms in the middle of its streamed answer. Check that ${scripted.baseUrl} is up, or raise models.providers.claude.timeoutMs.`,
    );
  });
});

describe("createProvider (anthropic-messages): retries and failures", () => {
  it("retries a 529 after the retry-after it names, then succeeds", async () => {
    const scripted = await serve(
      anthropicErrorReply(529, "overloaded_error", "Overloaded", { "retry-after": "1" }),
      messagesReply([{ type: "text", text: "ok" }]),
    );
    const started = Date.now();
    const response = await provider(scripted.baseUrl, { maxRetries: 1 }).complete(ROUND_TRIP);
    expect(response.output).toEqual([{ type: "message", role: "assistant", text: "ok" }]);
    expect(scripted.seen).toHaveLength(2);
    // The client's own backoff for a first retry is at most 0.5 s: waiting ~1 s is retry-after's doing.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(scripted.seen[1]?.body).toBe(scripted.seen[0]?.body);
  });

  it.each([
    [
      529,
      "overloaded_error",
      "Overloaded",
      "Overloaded. The provider is overloaded: wait, or raise maxRetries.",
    ],
    [
      429,
      "rate_limit_error",
      "Too many requests",
      "Too many requests. The provider is rate limiting: wait, or raise maxRetries.",
    ],
    [500, "api_error", "Internal server error", "Internal server error."],
  ])("fails for good after the retries on %s", async (status, type, message, said) => {
    const scripted = await serve(anthropicErrorReply(status, type, message, { "retry-after-ms": "10" }));
    const error = await failure(provider(scripted.baseUrl, { maxRetries: 2 }).complete(ROUND_TRIP));
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toBe(`Provider "claude" failed with HTTP ${status}: ${said}`);
    expect(scripted.seen).toHaveLength(3);
  });

  it("does not retry a 400 and says what the provider said", async () => {
    const scripted = await serve(
      anthropicErrorReply(400, "invalid_request_error", "messages.0: text content blocks must be non-empty"),
    );
    const error = await failure(provider(scripted.baseUrl, { maxRetries: 2 }).complete(ROUND_TRIP));
    expect(error.message).toBe(
      'Provider "claude" failed with HTTP 400: messages.0: text content blocks must be non-empty.',
    );
    expect(scripted.seen).toHaveLength(1);
  });

  it("cancels a request in flight via request.signal", async () => {
    const scripted = await serve({ hang: true });
    const controller = new AbortController();
    const pending = provider(scripted.baseUrl).complete({ ...ROUND_TRIP, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await failure(pending);
    expect(error.code).toBe("CANCELLED");
  });

  it("reports an answer without content as not a Messages response", async () => {
    const scripted = await serve({ status: 200, json: { id: "x", choices: [] } });
    const error = await failure(provider(scripted.baseUrl).complete(ROUND_TRIP));
    expect(error.message).toBe(
      'Provider "claude" sent an answer that is not a valid Anthropic Messages response. Check that models.providers.claude.api matches what the server speaks.',
    );
  });
});

describe("createProvider (anthropic-messages): pause_turn", () => {
  it("sends a paused answer back as it came and joins the pieces into one response", async () => {
    const paused = messagesAnswer([{ type: "text", text: "Half way." }], "pause_turn");
    const scripted = await serve(
      { status: 200, json: paused },
      messagesReply(
        [{ type: "tool_use", id: "toolu_9", name: "weather", input: { city: "Oslo" } }],
        "tool_use",
      ),
    );
    const response = await provider(scripted.baseUrl).complete(ROUND_TRIP);
    expect(response.output).toEqual([
      { type: "message", role: "assistant", text: "Half way." },
      { type: "function_call", callId: "toolu_9", name: "weather", arguments: '{"city":"Oslo"}' },
    ]);
    expect(response.usage?.outputTokens).toBe(14);
    expect(response.usage?.cacheReadInputTokens).toBe(2400);
    const second = JSON.parse(scripted.seen[1]?.body ?? "") as { messages: unknown[] };
    expect(second.messages.at(-1)).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "Half way." }],
    });
    expect(response.requestBytes).toBe(
      scripted.seen.reduce((sum, seen) => sum + Buffer.byteLength(seen.body, "utf8"), 0),
    );
  });

  it("stops continuing after MAX_PAUSE_TURN_CONTINUATIONS and returns what it has", async () => {
    const scripted = await serve({
      status: 200,
      json: messagesAnswer([{ type: "text", text: "." }], "pause_turn"),
    });
    const response = await provider(scripted.baseUrl).complete(ROUND_TRIP);
    expect(scripted.seen).toHaveLength(4);
    expect(response.output).toHaveLength(4);
  });
});

describe("createProvider (anthropic-messages): keys", () => {
  const forbiddenFetch: typeof fetch = () => {
    throw new Error("fetch must not be called");
  };

  it("fails without touching the network when Anthropic's API has no key", async () => {
    const claude = createProvider(
      "claude",
      { api: "anthropic-messages" },
      { fetch: forbiddenFetch, env: {} },
    );
    const error = await failure(claude.complete(ROUND_TRIP));
    expect(error.message).toBe(
      'Provider "claude" has no API key for https://api.anthropic.com. Set ANTHROPIC_API_KEY, or models.providers.claude.apiKey (for example "env:ANTHROPIC_API_KEY").',
    );
  });

  it("falls back to ANTHROPIC_API_KEY for Anthropic's API and names it in a 401 hint", async () => {
    let sentKey: string | null = null;
    const fakeFetch: typeof fetch = async (_input, init) => {
      sentKey = new Headers(init?.headers).get("authorization");
      return new Response(
        JSON.stringify({
          type: "error",
          error: { type: "authentication_error", message: "invalid x-api-key" },
        }),
        {
          status: 401,
          headers: { "content-type": "application/json" },
        },
      );
    };
    const claude = createProvider(
      "claude",
      { api: "anthropic-messages", maxRetries: 0 },
      { fetch: fakeFetch, env: { ANTHROPIC_API_KEY: "sk-ant-env" } },
    );
    const error = await failure(claude.complete(ROUND_TRIP));
    expect(sentKey).toBe("Bearer sk-ant-env");
    expect(error.code).toBe("PROVIDER_AUTH_FAILED");
    expect(error.message).toBe(
      'Provider "claude" failed with HTTP 401: invalid x-api-key. Check models.providers.claude.apiKey (or ANTHROPIC_API_KEY).',
    );
  });
});
