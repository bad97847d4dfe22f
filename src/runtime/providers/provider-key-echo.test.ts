import { afterEach, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { anthropicErrorReply, messagesEvent } from "./anthropic-scripted.test-support.js";
import { createProvider } from "./create-provider.js";
import { errorReply, type ScriptedServer, startScriptedServer } from "./scripted-server.test-support.js";
import type { ProviderRequest } from "./types.js";

const REQUEST: ProviderRequest = {
  model: "m",
  instructions: "be brief",
  input: [{ type: "message", role: "user", text: "hello" }],
  tools: [],
};
const KEY = "configured-key-7c1f0e5a";

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failureMessage(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isToolsiftError(error)) throw new Error(`expected a ToolsiftError, got ${String(error)}`);
  return error.message;
}

describe("createProvider: a server that quotes the key it was sent", () => {
  it.each(["openai-chat", "openai-responses"] as const)(
    "%s: the PROVIDER_FAILED message names the status and hides the key",
    async (api) => {
      server = await startScriptedServer([errorReply(401, `Incorrect API key provided: ${KEY}.`)]);
      const provider = createProvider("echo", { api, baseUrl: server.baseUrl, apiKey: KEY, maxRetries: 0 });
      const message = await failureMessage(provider.complete(REQUEST));
      expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(message).toBe(
        'Provider "echo" failed with HTTP 401: Incorrect API key provided: [REDACTED]. Check models.providers.echo.apiKey.',
      );
    },
  );

  it("hides the key in a Responses answer that reports failure with status 200", async () => {
    server = await startScriptedServer([
      { status: 200, json: { status: "failed", error: { message: `key ${KEY} is disabled` } } },
    ]);
    const provider = createProvider("echo", {
      api: "openai-responses",
      baseUrl: server.baseUrl,
      apiKey: KEY,
      maxRetries: 0,
    });
    expect(await failureMessage(provider.complete(REQUEST))).toBe(
      'Provider "echo" failed: key [REDACTED] is disabled',
    );
  });
});

describe("createProvider (anthropic-messages): a server that quotes the key it was sent", () => {
  const anthropic = (baseUrl: string) =>
    createProvider("echo", { api: "anthropic-messages", baseUrl, apiKey: KEY, maxRetries: 0 });

  it("hides the key in an HTTP error", async () => {
    server = await startScriptedServer([
      anthropicErrorReply(401, "authentication_error", `invalid x-api-key: ${KEY}`),
    ]);
    const message = await failureMessage(anthropic(server.baseUrl).complete(REQUEST));
    expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(message).toBe(
      'Provider "echo" failed with HTTP 401: invalid x-api-key: [REDACTED]. Check models.providers.echo.apiKey.',
    );
  });

  it("hides the key in an error event of a stream", async () => {
    server = await startScriptedServer([
      {
        frames: [messagesEvent("error", { error: { type: "api_error", message: `key ${KEY} revoked` } })],
        ending: "end",
      },
    ]);
    const message = await failureMessage(
      anthropic(server.baseUrl).complete({ ...REQUEST, onTextDelta: () => {} }),
    );
    expect(message).toBe('Provider "echo" failed: key [REDACTED] revoked');
  });
});
