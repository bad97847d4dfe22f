import { describe, expect, it } from "vitest";
import { createProvider } from "./create-provider.js";
import {
  chatReply,
  errorReply,
  providerFailure,
  scriptedServers,
  startScriptedServer,
} from "./scripted-server.test-support.js";
import type { ProviderRequest, ProviderSettings } from "./types.js";

const REQUEST: ProviderRequest = {
  model: "m",
  instructions: "be brief",
  input: [{ type: "message", role: "user", text: "hello" }],
  tools: [],
};

const serve = scriptedServers();

function chatProvider(baseUrl: string, settings: Partial<ProviderSettings> = {}) {
  return createProvider("local", { api: "openai-chat", baseUrl, ...settings });
}

const failure = providerFailure;

describe("createProvider: retries (the openai client's own)", () => {
  it("retries a 429 after its retry-after and then succeeds", async () => {
    const { baseUrl, seen } = await serve(
      errorReply(429, "Slow down", { "retry-after": "0" }),
      chatReply("ok"),
    );
    const response = await chatProvider(baseUrl).complete(REQUEST);
    expect(response.output).toEqual([{ type: "message", role: "assistant", text: "ok" }]);
    expect(seen).toHaveLength(2);
    expect(seen[1]?.body).toBe(seen[0]?.body);
    expect(response.requestBytes).toBe(Buffer.byteLength(seen[1]?.body ?? "", "utf8"));
  });

  it("retries a 500 (default backoff) and then succeeds", async () => {
    const { baseUrl, seen } = await serve(errorReply(500, "boom"), chatReply("recovered"));
    const response = await chatProvider(baseUrl).complete(REQUEST);
    expect(response.output).toEqual([{ type: "message", role: "assistant", text: "recovered" }]);
    expect(seen).toHaveLength(2);
  });

  it("gives up after maxRetries with an error naming the provider, the status and its message", async () => {
    const { baseUrl, seen } = await serve(
      errorReply(503, "The engine is overloaded", { "retry-after": "0" }),
    );
    const error = await failure(chatProvider(baseUrl, { maxRetries: 2 }).complete(REQUEST));
    expect(seen).toHaveLength(3);
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toBe('Provider "local" failed with HTTP 503: The engine is overloaded.');
  });

  it("does not retry a 401 and says which key to check", async () => {
    const { baseUrl, seen } = await serve(errorReply(401, "Incorrect API key provided."));
    const error = await failure(chatProvider(baseUrl).complete(REQUEST));
    expect(seen).toHaveLength(1);
    expect(error.code).toBe("PROVIDER_AUTH_FAILED");
    expect(error.message).toBe(
      'Provider "local" failed with HTTP 401: Incorrect API key provided. Check models.providers.local.apiKey.',
    );
  });

  it("a 403 is an auth failure too; a missing key as well (the gateway does not let clients retry them)", async () => {
    const { baseUrl, seen } = await serve(errorReply(403, "Project does not have access."));
    const error = await failure(chatProvider(baseUrl).complete(REQUEST));
    expect(seen).toHaveLength(1);
    expect(error.code).toBe("PROVIDER_AUTH_FAILED");
    expect(error.message).toContain("Check models.providers.local.apiKey.");
    const keyless = createProvider("openai", { api: "openai-chat" }, { env: {} });
    const missing = await failure(keyless.complete(REQUEST));
    expect(missing.code).toBe("PROVIDER_AUTH_FAILED");
    expect(missing.message).toContain("models.providers.openai.apiKey");
  });

  it("quotes a plain-text error body, bounded to 500 characters", async () => {
    const { baseUrl } = await serve({ status: 400, text: `bad ${"x".repeat(2_000)}` });
    const error = await failure(chatProvider(baseUrl).complete(REQUEST));
    expect(error.message.startsWith('Provider "local" failed with HTTP 400: bad xxx')).toBe(true);
    const quoted = error.message.slice('Provider "local" failed with HTTP 400: '.length);
    expect(quoted.length).toBeLessThanOrEqual(501);
    expect(quoted.endsWith("...")).toBe(true);
  });
});

describe("createProvider: requests that never complete", () => {
  it("reports a timeout with the provider id and the limit", async () => {
    const { baseUrl, seen } = await serve({ hang: true });
    const error = await failure(chatProvider(baseUrl, { timeoutMs: 200, maxRetries: 0 }).complete(REQUEST));
    expect(seen).toHaveLength(1);
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toContain('Provider "local" did not answer within 200 ms.');
    expect(error.message).toContain("models.providers.local.timeoutMs");
  });

  it("retries a timeout like any connection failure", async () => {
    const { baseUrl, seen } = await serve({ hang: true });
    await failure(chatProvider(baseUrl, { timeoutMs: 100, maxRetries: 1 }).complete(REQUEST));
    expect(seen).toHaveLength(2);
  });

  it("names the base URL when nothing listens there", async () => {
    const closed = await startScriptedServer([chatReply("never")]);
    await closed.close();
    const error = await failure(chatProvider(closed.baseUrl, { maxRetries: 0 }).complete(REQUEST));
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toBe(
      `Provider "local" could not be reached at ${closed.baseUrl} (ECONNREFUSED). Check that the server is running and models.providers.local.baseUrl.`,
    );
  });

  it("aborts through request.signal with CANCELLED", async () => {
    const { baseUrl, seen } = await serve({ hang: true });
    const controller = new AbortController();
    const pending = chatProvider(baseUrl).complete({ ...REQUEST, signal: controller.signal });
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await failure(pending);
    expect(error.code).toBe("CANCELLED");
    expect(error.message).toBe('The request to provider "local" was cancelled.');
    expect(seen).toHaveLength(1);
  });
});

describe("createProvider: answers it cannot use", () => {
  it("refuses a chat answer without choices", async () => {
    const { baseUrl } = await serve({ status: 200, json: { id: "x", object: "chat.completion" } });
    const error = await failure(chatProvider(baseUrl).complete(REQUEST));
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toBe(
      'Provider "local" sent an answer that is not a valid Chat Completions response. Check that models.providers.local.api matches what the server speaks.',
    );
  });

  it("refuses a Responses answer without an output list", async () => {
    const { baseUrl } = await serve({ status: 200, json: { id: "resp_1", object: "response" } });
    const provider = createProvider("local", { api: "openai-responses", baseUrl });
    const error = await failure(provider.complete(REQUEST));
    expect(error.message).toContain("not a valid Responses API response");
  });

  it("reports a Responses answer whose status is failed, with the provider's message", async () => {
    const { baseUrl } = await serve({
      status: 200,
      json: {
        id: "resp_1",
        status: "failed",
        error: { code: "server_error", message: "model crashed" },
        output: [],
      },
    });
    const provider = createProvider("local", { api: "openai-responses", baseUrl });
    const error = await failure(provider.complete(REQUEST));
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toBe('Provider "local" failed: model crashed');
  });
});

describe("createProvider: what goes on the wire", () => {
  it("sends the configured key and headers, and a placeholder key to servers that need none", async () => {
    const { baseUrl, seen } = await serve(chatReply("a"));
    await chatProvider(baseUrl, { apiKey: "sk-test", headers: { "x-team": "qa" } }).complete(REQUEST);
    await chatProvider(baseUrl).complete(REQUEST);
    expect(seen[0]?.headers.authorization).toBe("Bearer sk-test");
    expect(seen[0]?.headers["x-team"]).toBe("qa");
    expect(seen[1]?.headers.authorization).toBe("Bearer not-set");
    expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
      "POST /v1/chat/completions",
      "POST /v1/chat/completions",
    ]);
  });
});
