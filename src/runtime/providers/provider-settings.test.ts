import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createProvider } from "./create-provider.js";
import { providerKeyProblem, resolveProviderSettings } from "./provider-settings.js";
import type { ProviderSettings } from "./types.js";

const NO_ENV = {};

/** A fetch that must never run: proves a failure happened before any network use. */
const forbiddenFetch: typeof fetch = () => {
  throw new Error("fetch must not be called");
};

describe("resolveProviderSettings: defaults", () => {
  it("defaults to the OpenAI API, 120 s and 2 retries", () => {
    const resolved = resolveProviderSettings("openai", { api: "openai-responses", apiKey: "sk-1" }, NO_ENV);
    expect(resolved).toMatchObject({
      baseUrl: "https://api.openai.com/v1",
      apiKey: "sk-1",
      keyProblem: undefined,
      isOpenAI: true,
      timeoutMs: 120_000,
      maxRetries: 2,
    });
  });

  it("uses a placeholder key for a server that needs none", () => {
    const resolved = resolveProviderSettings(
      "ollama",
      { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" },
      NO_ENV,
    );
    expect(resolved.apiKey).toBe("not-set");
    expect(resolved.keyProblem).toBeUndefined();
  });

  it("falls back to OPENAI_API_KEY for the OpenAI API only", () => {
    const env = { OPENAI_API_KEY: "sk-env" };
    expect(resolveProviderSettings("openai", { api: "openai-responses" }, env).apiKey).toBe("sk-env");
    expect(
      resolveProviderSettings("lan", { api: "openai-chat", baseUrl: "http://10.0.0.2:8000/v1" }, env).apiKey,
    ).toBe("not-set");
  });
});

describe("a missing OpenAI key", () => {
  it("is reported by providerKeyProblem, naming the variable and the config key", () => {
    expect(providerKeyProblem("openai", { api: "openai-responses", apiKey: "  " }, NO_ENV)).toBe(
      'Provider "openai" has no API key for https://api.openai.com/v1. Set OPENAI_API_KEY, or models.providers.openai.apiKey (for example "env:OPENAI_API_KEY").',
    );
    expect(
      providerKeyProblem("openai", { api: "openai-responses" }, { OPENAI_API_KEY: "sk" }),
    ).toBeUndefined();
  });

  it("fails the first request without touching the network", async () => {
    const provider = createProvider("openai", { api: "openai-chat" }, { fetch: forbiddenFetch, env: NO_ENV });
    const error = await provider
      .complete({ model: "gpt", instructions: "", input: [], tools: [] })
      .catch((reason: unknown) => reason);
    expect(isToolsiftError(error) && error.code).toBe("PROVIDER_AUTH_FAILED");
    expect((error as Error).message).toContain("Set OPENAI_API_KEY, or models.providers.openai.apiKey");
  });
});

describe("bad settings are refused at once with CONFIG_INVALID", () => {
  const cases: Array<[string, ProviderSettings, string]> = [
    [
      "an unknown api",
      { api: "anthropic" as ProviderSettings["api"] },
      'models.providers.p.api must be "openai-responses", "openai-chat" or "anthropic-messages"; got "anthropic".',
    ],
    [
      "a base URL that is not http(s)",
      { api: "openai-chat", baseUrl: "ftp://example.com" },
      'models.providers.p.baseUrl must be an http(s) URL such as http://127.0.0.1:11434/v1; got "ftp://example.com".',
    ],
    [
      "a base URL that is not a URL",
      { api: "openai-chat", baseUrl: "localhost:11434" },
      'models.providers.p.baseUrl must be an http(s) URL such as http://127.0.0.1:11434/v1; got "localhost:11434".',
    ],
    [
      "a zero timeout",
      { api: "openai-chat", timeoutMs: 0 },
      "models.providers.p.timeoutMs must be a positive whole number of milliseconds; got 0.",
    ],
    [
      "a fractional timeout",
      { api: "openai-chat", timeoutMs: 1.5 },
      "models.providers.p.timeoutMs must be a positive whole number of milliseconds; got 1.5.",
    ],
    [
      "negative retries",
      { api: "openai-chat", maxRetries: -1 },
      "models.providers.p.maxRetries must be a whole number from 0 to 10; got -1.",
    ],
    [
      "too many retries",
      { api: "openai-chat", maxRetries: 11 },
      "models.providers.p.maxRetries must be a whole number from 0 to 10; got 11.",
    ],
  ];
  it.each(cases)("%s", (_name, settings, message) => {
    let thrown: unknown;
    try {
      createProvider("p", settings, { fetch: forbiddenFetch, env: NO_ENV });
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code).toBe("CONFIG_INVALID");
    expect((thrown as Error).message).toBe(message);
  });
});

describe("resolveProviderSettings: anthropic-messages", () => {
  it("defaults to Anthropic's API and falls back to ANTHROPIC_API_KEY there only", () => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-env", OPENAI_API_KEY: "sk-openai" };
    expect(resolveProviderSettings("claude", { api: "anthropic-messages" }, env)).toMatchObject({
      baseUrl: "https://api.anthropic.com",
      apiKey: "sk-ant-env",
      keyEnv: "ANTHROPIC_API_KEY",
      isOpenAI: false,
    });
    expect(
      resolveProviderSettings(
        "mock",
        { api: "anthropic-messages", baseUrl: "http://127.0.0.1:18790/v1" },
        env,
      ).apiKey,
    ).toBe("not-set");
  });

  it("reports a missing Anthropic key with the variable and the config key", () => {
    expect(providerKeyProblem("claude", { api: "anthropic-messages" }, NO_ENV)).toBe(
      'Provider "claude" has no API key for https://api.anthropic.com. Set ANTHROPIC_API_KEY, or models.providers.claude.apiKey (for example "env:ANTHROPIC_API_KEY").',
    );
  });
});
