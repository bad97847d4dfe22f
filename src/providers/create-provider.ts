import OpenAI from "openai";
import { ToolsiftError } from "../errors/index.js";
import { cutText } from "../text/index.js";
import { fromChatAnswer, toChatBody } from "./chat-mapping.js";
import { MAX_PROVIDER_ERROR_CHARS, PLACEHOLDER_API_KEY } from "./limits.js";
import {
  malformedAnswerError,
  type ProviderErrorContext,
  toProviderError,
  withoutApiKey,
} from "./provider-error.js";
import { resolveProviderSettings } from "./provider-settings.js";
import type { ParsedAnswer } from "./read-json.js";
import { type BytesRecorder, byteCountingFetch, recordBytesInto } from "./request-bytes.js";
import { fromResponsesAnswer, responsesFailure, toResponsesBody } from "./responses-mapping.js";
import type { Provider, ProviderRequest, ProviderResponse, ProviderSettings } from "./types.js";

/** Options of `createProvider`. */
export type CreateProviderOptions = {
  /** The fetch the client uses (default: the global `fetch`); wrapped to measure request bytes. */
  fetch?: typeof fetch;
  /** Where a missing OpenAI key is looked up. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
};

/**
 * A provider speaking the OpenAI Responses API (`api: "openai-responses"`) or Chat Completions
 * (`api: "openai-chat"`) through the official `openai` client, with its timeout and its retries (backoff on
 * 408/409/429/5xx and connection failures, honouring `retry-after`). `requestBytes` is the size of the body
 * really sent. A request that fails for good rejects with `PROVIDER_FAILED` (or `CANCELLED` when
 * `request.signal` aborts it). Throws `CONFIG_INVALID` at once for bad settings.
 *
 * `timeoutMs` and `maxRetries` bound each attempt and their number, not the caller's wait: `request.signal`
 * aborts the attempt in flight (the client aborts its fetch, which closes the connection) and stops retries
 * not yet sent, but the client's backoff sleep between attempts does not wake on it, so a caller with a
 * deadline races the call against its signal (the runner does: its run timeout bounds every request). The
 * client adds an `abort` listener to `request.signal` per attempt and never removes it: pass a signal that
 * lives no longer than the request.
 */
export function createProvider(
  id: string,
  settings: ProviderSettings,
  options: CreateProviderOptions = {},
): Provider {
  const resolved = resolveProviderSettings(id, settings, options.env);
  const client = new OpenAI({
    // Without a key the first request fails before sending (keyProblem): the placeholder is never sent.
    apiKey: resolved.apiKey ?? PLACEHOLDER_API_KEY,
    baseURL: resolved.baseUrl,
    timeout: resolved.timeoutMs,
    maxRetries: resolved.maxRetries,
    defaultHeaders: resolved.headers,
    fetch: byteCountingFetch(options.fetch ?? globalThis.fetch),
  });
  const context: ProviderErrorContext = {
    id,
    baseUrl: resolved.baseUrl,
    timeoutMs: resolved.timeoutMs,
    isOpenAI: resolved.isOpenAI,
    ...(resolved.apiKey === undefined || resolved.apiKey === PLACEHOLDER_API_KEY
      ? {}
      : { apiKey: resolved.apiKey }),
  };
  const apiName = resolved.api === "openai-responses" ? "Responses API" : "Chat Completions";
  const tokenCapField = resolved.isOpenAI ? "max_completion_tokens" : "max_tokens";

  async function send(request: ProviderRequest): Promise<ParsedAnswer & { bytes: number }> {
    const recorder: BytesRecorder = { bytes: 0 };
    const requestOptions = {
      ...recordBytesInto(recorder),
      ...(request.signal ? { signal: request.signal } : {}),
    };
    if (resolved.api === "openai-responses") {
      const body = toResponsesBody(request);
      // The plain POST: the SDK's `responses.create` post-processes answers and throws on a malformed one.
      const value = await client.post<unknown>("/responses", { body, ...requestOptions });
      const failure = responsesFailure(value);
      if (failure !== undefined)
        throw new ToolsiftError(
          "PROVIDER_FAILED",
          `Provider "${id}" failed: ${cutText(withoutApiKey(failure, context.apiKey), MAX_PROVIDER_ERROR_CHARS)}`,
        );
      const parsed = fromResponsesAnswer(value);
      if (!parsed) throw malformedAnswerError(id, apiName);
      return { ...parsed, bytes: recorder.bytes };
    }
    const body = toChatBody(request, tokenCapField);
    const value = await client.chat.completions.create(body, requestOptions);
    const parsed = fromChatAnswer(value);
    if (!parsed) throw malformedAnswerError(id, apiName);
    return { ...parsed, bytes: recorder.bytes };
  }

  return {
    id,
    async complete(request: ProviderRequest): Promise<ProviderResponse> {
      if (resolved.keyProblem !== undefined) throw new ToolsiftError("PROVIDER_FAILED", resolved.keyProblem);
      try {
        const answer = await send(request);
        return {
          output: answer.output,
          ...(answer.usage ? { usage: answer.usage } : {}),
          requestBytes: answer.bytes,
        };
      } catch (error) {
        throw toProviderError(error, context);
      }
    },
  };
}
