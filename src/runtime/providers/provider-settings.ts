import { ToolsiftError } from "../../shared/errors/index.js";
import {
  ANTHROPIC_API_HOST,
  ANTHROPIC_API_KEY_ENV,
  ANTHROPIC_BASE_URL,
  OPENAI_API_HOST,
  OPENAI_API_KEY_ENV,
  OPENAI_BASE_URL,
  PLACEHOLDER_API_KEY,
} from "./api-endpoints.js";
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, MAX_RETRIES_CEILING } from "./limits.js";
import type { ProviderSettings } from "./types.js";

/** A provider's settings with every default applied and every value checked. */
export type ResolvedProviderSettings = {
  api: ProviderSettings["api"];
  baseUrl: string;
  /** The key to send, or `undefined` when the real OpenAI API has none (`keyProblem` says why). */
  apiKey: string | undefined;
  keyProblem: string | undefined;
  isOpenAI: boolean;
  /** The environment variable a missing key falls back to (only for the real OpenAI or Anthropic API). */
  keyEnv: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  headers: Record<string, string>;
};

const APIS: ReadonlySet<string> = new Set(["openai-responses", "openai-chat", "anthropic-messages"]);

/**
 * Checks a provider's settings and applies the defaults (the OpenAI base URL, or Anthropic's for
 * `anthropic-messages`; 120 s timeout, 2 retries). Throws `CONFIG_INVALID` naming
 * `models.providers.<id>.<key>` for a bad value. A missing key is not thrown here: servers that need none get
 * a placeholder, and the real OpenAI (Anthropic) API falls back to `OPENAI_API_KEY` (`ANTHROPIC_API_KEY`),
 * else reports `keyProblem` (the first request then fails without touching the network).
 */
export function resolveProviderSettings(
  id: string,
  settings: ProviderSettings,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ResolvedProviderSettings {
  const key = `models.providers.${id}`;
  if (!APIS.has(settings.api))
    throw invalid(
      `${key}.api must be "openai-responses", "openai-chat" or "anthropic-messages"; got ${JSON.stringify(settings.api)}.`,
    );
  const isAnthropicApi = settings.api === "anthropic-messages";
  const baseUrl = settings.baseUrl ?? (isAnthropicApi ? ANTHROPIC_BASE_URL : OPENAI_BASE_URL);
  const host = urlHost(baseUrl);
  if (host === undefined)
    throw invalid(
      `${key}.baseUrl must be an http(s) URL such as http://127.0.0.1:11434/v1; got ${JSON.stringify(baseUrl)}.`,
    );
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1)
    throw invalid(`${key}.timeoutMs must be a positive whole number of milliseconds; got ${timeoutMs}.`);
  const maxRetries = settings.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isSafeInteger(maxRetries) || maxRetries < 0 || maxRetries > MAX_RETRIES_CEILING)
    throw invalid(
      `${key}.maxRetries must be a whole number from 0 to ${MAX_RETRIES_CEILING}; got ${maxRetries}.`,
    );

  const isOpenAI = host === OPENAI_API_HOST;
  const keyEnv = isOpenAI
    ? OPENAI_API_KEY_ENV
    : host === ANTHROPIC_API_HOST
      ? ANTHROPIC_API_KEY_ENV
      : undefined;
  const configuredKey = nonBlank(settings.apiKey) ?? (keyEnv ? nonBlank(env[keyEnv]) : undefined);
  const apiKey = configuredKey ?? (keyEnv ? undefined : PLACEHOLDER_API_KEY);
  const keyProblem =
    apiKey === undefined
      ? `Provider "${id}" has no API key for ${baseUrl}. Set ${keyEnv}, or ${key}.apiKey (for example "env:${keyEnv}").`
      : undefined;
  return {
    api: settings.api,
    baseUrl,
    apiKey,
    keyProblem,
    isOpenAI,
    keyEnv,
    timeoutMs,
    maxRetries,
    headers: { ...(settings.headers ?? {}) },
  };
}

/**
 * Why a provider could not send a request for lack of a key, or `undefined` when it can (for `doctor`).
 * Throws `CONFIG_INVALID` like `createProvider` for settings that are wrong in other ways.
 */
export function providerKeyProblem(
  id: string,
  settings: ProviderSettings,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  return resolveProviderSettings(id, settings, env).keyProblem;
}

function urlHost(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

function nonBlank(value: string | undefined): string | undefined {
  return value !== undefined && value.trim().length > 0 ? value : undefined;
}

function invalid(message: string): ToolsiftError {
  return new ToolsiftError("CONFIG_INVALID", message);
}
