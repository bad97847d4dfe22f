import Anthropic, { APIUserAbortError } from "@anthropic-ai/sdk";
import { ToolsiftError } from "../../shared/errors/index.js";
import { fromMessagesAnswer, toMessagesBody } from "./anthropic-mapping.js";
import { isAnthropicClientError, toAnthropicProviderError } from "./anthropic-provider-error.js";
import { MESSAGES_API, readMessagesStream } from "./anthropic-stream.js";
import { PLACEHOLDER_API_KEY } from "./api-endpoints.js";
import { followStream } from "./follow-stream.js";
import { MAX_PAUSE_TURN_CONTINUATIONS } from "./limits.js";
import { malformedAnswerError, type ProviderErrorContext } from "./provider-error.js";
import { resolveProviderSettings } from "./provider-settings.js";
import { answerId, readField } from "./read-json.js";
import { type BytesRecorder, byteCountingFetch, recordBytesInto } from "./request-bytes.js";
import { streamedOrWhole } from "./streamed-or-whole.js";
import { guardTextListener, TextListenerFailure } from "./text-listener.js";
import type {
  ConversationItem,
  CreateProviderOptions,
  Provider,
  ProviderRequest,
  ProviderResponse,
  ProviderSettings,
  ProviderUsage,
} from "./types.js";

type MessagesBody = ReturnType<typeof toMessagesBody>;

/**
 * A provider speaking the Anthropic Messages API (`api: "anthropic-messages"`) through the official
 * `@anthropic-ai/sdk` client, with its timeout and retries (408/409/429/529/5xx and connection failures,
 * honouring `retry-after`). The stable prefix (tools, then the system prompt) carries prompt-cache
 * breakpoints; usage reports the cache reads and writes. An answer that stops with `pause_turn` is sent
 * back as it is so the model finishes its turn, at most `MAX_PAUSE_TURN_CONTINUATIONS` times, and the
 * pieces make one response (outputs in order, usage and request bytes summed). Failures, cancellation,
 * streaming (`request.onTextDelta`) and `requestBytes` keep the OpenAI providers' contract (DESIGN.md).
 */
export function createAnthropicProvider(
  id: string,
  settings: ProviderSettings,
  options: CreateProviderOptions = {},
): Provider {
  const resolved = resolveProviderSettings(id, settings, options.env);
  const client = new Anthropic({
    // Always given, so the client never reads ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN or a profile itself;
    // without a key the first request fails before sending (keyProblem): the placeholder is never sent.
    apiKey: resolved.apiKey ?? PLACEHOLDER_API_KEY,
    baseURL: clientBaseUrl(resolved.baseUrl),
    timeout: resolved.timeoutMs,
    maxRetries: resolved.maxRetries,
    defaultHeaders: resolved.headers,
    fetch: byteCountingFetch(options.fetch ?? globalThis.fetch),
    // toolsift's own telemetry covers provider requests; the client's spans would repeat them and
    // propagate trace headers to the provider.
    openTelemetry: false,
  });
  const context: ProviderErrorContext = {
    id,
    baseUrl: resolved.baseUrl,
    timeoutMs: resolved.timeoutMs,
    isOpenAI: false,
    ...(resolved.keyEnv === undefined ? {} : { keyEnv: resolved.keyEnv }),
    ...(resolved.apiKey === undefined || resolved.apiKey === PLACEHOLDER_API_KEY
      ? {}
      : { apiKey: resolved.apiKey }),
  };

  /** One HTTP request (retries included): the raw answer and the bytes its body had on the wire. */
  async function send(
    body: MessagesBody,
    request: ProviderRequest,
    onTextDelta: ((delta: string) => void) | undefined,
  ): Promise<{ answer: unknown; bytes: number }> {
    const recorder: BytesRecorder = { bytes: 0 };
    const requestOptions = {
      ...recordBytesInto(recorder),
      ...(request.signal ? { signal: request.signal } : {}),
    };
    if (!onTextDelta)
      return { answer: await client.messages.create(body, requestOptions), bytes: recorder.bytes };
    const streamed = await streamedOrWhole(
      client.messages.create({ ...body, stream: true }, requestOptions),
      { context, api: MESSAGES_API, signal: request.signal },
    );
    if ("whole" in streamed) return { answer: streamed.whole, bytes: recorder.bytes };
    const answer = await readMessagesStream(
      followStream(streamed.stream, {
        idleMs: resolved.timeoutMs,
        context,
        api: MESSAGES_API,
        isClientError: isAnthropicClientError,
        abortError: () => new APIUserAbortError(),
        ...(request.signal ? { signal: request.signal } : {}),
      }),
      onTextDelta,
      context,
    );
    return { answer, bytes: recorder.bytes };
  }

  return {
    id,
    async complete(request: ProviderRequest): Promise<ProviderResponse> {
      if (resolved.keyProblem !== undefined)
        throw new ToolsiftError("PROVIDER_AUTH_FAILED", resolved.keyProblem);
      const onTextDelta = request.onTextDelta ? guardTextListener(request.onTextDelta) : undefined;
      try {
        const body = toMessagesBody(request);
        const output: ConversationItem[] = [];
        let usage: ProviderUsage | undefined;
        let requestBytes = 0;
        let responseId: { id?: string } = {};
        for (let continuation = 0; ; continuation += 1) {
          const sent = await send(body, request, onTextDelta);
          const parsed = fromMessagesAnswer(sent.answer);
          if (!parsed) throw malformedAnswerError(id, MESSAGES_API);
          output.push(...parsed.output);
          usage = addUsage(usage, parsed.usage);
          requestBytes += sent.bytes;
          responseId = answerId(sent.answer);
          if (parsed.stop !== "pause_turn" || continuation >= MAX_PAUSE_TURN_CONTINUATIONS) break;
          // Paused mid-turn: the answer goes back as the last assistant message, exactly as it came.
          body.messages = [
            ...body.messages,
            { role: "assistant", content: readField(sent.answer, "content") as Anthropic.ContentBlock[] },
          ];
        }
        return { output, ...(usage ? { usage } : {}), requestBytes, ...responseId };
      } catch (error) {
        if (error instanceof TextListenerFailure) throw error.error;
        throw toAnthropicProviderError(error, context);
      }
    },
  };
}

/**
 * The client's base URL: it appends `/v1/messages` itself, so a configured base URL ending in `/v1` (as
 * for the OpenAI providers) is taken without it.
 */
function clientBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/u, "").replace(/\/v1$/u, "");
}

function addUsage(
  total: ProviderUsage | undefined,
  next: ProviderUsage | undefined,
): ProviderUsage | undefined {
  if (total === undefined || next === undefined) return total ?? next;
  const sum = (a: number | undefined, b: number | undefined) =>
    a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
  const cacheRead = sum(total.cacheReadInputTokens, next.cacheReadInputTokens);
  const cacheCreation = sum(total.cacheCreationInputTokens, next.cacheCreationInputTokens);
  return {
    inputTokens: total.inputTokens + next.inputTokens,
    outputTokens: total.outputTokens + next.outputTokens,
    ...(cacheRead === undefined ? {} : { cacheReadInputTokens: cacheRead }),
    ...(cacheCreation === undefined ? {} : { cacheCreationInputTokens: cacheCreation }),
  };
}
