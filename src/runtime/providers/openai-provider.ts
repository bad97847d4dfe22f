import OpenAI, { APIError, APIUserAbortError } from "openai";
import { ToolsiftError } from "../../shared/errors/index.js";
import { PLACEHOLDER_API_KEY } from "./api-endpoints.js";
import { fromChatAnswer, toChatBody } from "./chat-mapping.js";
import { readChatStream } from "./chat-stream.js";
import { followStream } from "./follow-stream.js";
import { toProviderError } from "./openai-provider-error.js";
import { malformedAnswerError, type ProviderErrorContext, reportedFailureError } from "./provider-error.js";
import { resolveProviderSettings } from "./provider-settings.js";
import { answerId, type ParsedAnswer } from "./read-json.js";
import { type BytesRecorder, byteCountingFetch, recordBytesInto } from "./request-bytes.js";
import { fromResponsesAnswer, responsesFailure, toResponsesBody } from "./responses-mapping.js";
import { readResponsesStream } from "./responses-stream.js";
import { streamedOrWhole } from "./streamed-or-whole.js";
import { guardTextListener, TextListenerFailure } from "./text-listener.js";
import type {
  CreateProviderOptions,
  Provider,
  ProviderRequest,
  ProviderResponse,
  ProviderSettings,
} from "./types.js";

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
 *
 * With `request.onTextDelta` the answer is streamed (`stream: true`; Chat asks for the usage chunk too) and
 * each piece of message text is handed on as it arrives; the response is the one the non-stream mapping
 * gives. A server that ignores `stream` and answers one JSON body is read whole (`streamed-or-whole.ts`).
 * Retries stay the client's, so they end with the answer's first byte: a stream that breaks off,
 * goes quiet for `timeoutMs` or ends without its final event fails for good (see DESIGN.md, Streaming).
 */
export function createOpenAIProvider(
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
    const follow = {
      idleMs: resolved.timeoutMs,
      context,
      api: apiName,
      ...(request.signal ? { signal: request.signal } : {}),
      isClientError: (error: unknown) => error instanceof APIError,
      abortError: () => new APIUserAbortError(),
    };
    const onTextDelta = request.onTextDelta ? guardTextListener(request.onTextDelta) : undefined;
    const where = { context, api: apiName, signal: request.signal };
    let parsed: ParsedAnswer | undefined;
    if (resolved.api === "openai-responses") {
      const body = toResponsesBody(request);
      // Unstreamed, the plain POST: `responses.create` post-processes answers and throws on a malformed one.
      // Streamed, `responses.create` hands the events over as they are.
      let value: unknown;
      if (onTextDelta) {
        const answer = await streamedOrWhole(
          client.responses.create({ ...body, stream: true }, requestOptions),
          where,
        );
        value =
          "whole" in answer
            ? answer.whole
            : await readResponsesStream(followStream(answer.stream, follow), onTextDelta, context);
      } else value = await client.post<unknown>("/responses", { body, ...requestOptions });
      const failure = responsesFailure(value);
      if (failure !== undefined) throw reportedFailureError(context, failure);
      parsed = fromResponsesAnswer(value);
      if (parsed) parsed = { ...parsed, ...answerId(value) };
    } else {
      const body = toChatBody(request, tokenCapField);
      let value: unknown;
      if (onTextDelta) {
        const answer = await streamedOrWhole(
          client.chat.completions.create(
            { ...body, stream: true, stream_options: { include_usage: true } },
            requestOptions,
          ),
          where,
        );
        value =
          "whole" in answer
            ? answer.whole
            : await readChatStream(followStream(answer.stream, follow), onTextDelta, context);
      } else value = await client.chat.completions.create(body, requestOptions);
      parsed = fromChatAnswer(value);
      if (parsed) parsed = { ...parsed, ...answerId(value) };
    }
    if (!parsed) throw malformedAnswerError(id, apiName);
    return { ...parsed, bytes: recorder.bytes };
  }

  return {
    id,
    async complete(request: ProviderRequest): Promise<ProviderResponse> {
      if (resolved.keyProblem !== undefined)
        throw new ToolsiftError("PROVIDER_AUTH_FAILED", resolved.keyProblem);
      try {
        const answer = await send(request);
        return {
          output: answer.output,
          ...(answer.usage ? { usage: answer.usage } : {}),
          requestBytes: answer.bytes,
          ...(answer.id === undefined ? {} : { id: answer.id }),
        };
      } catch (error) {
        if (error instanceof TextListenerFailure) throw error.error;
        throw toProviderError(error, context);
      }
    },
  };
}
