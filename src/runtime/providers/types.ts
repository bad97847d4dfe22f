/** One item of a conversation, in the runner's provider-neutral form (close to the Responses API). */
export type ConversationItem =
  | { type: "message"; role: "user" | "assistant"; text: string }
  | { type: "function_call"; callId: string; name: string; arguments: string }
  | {
      type: "function_call_output";
      callId: string;
      output: string;
      /** Set when the tool reported a failure (Anthropic's `tool_result` carries it as `is_error`). */
      isError?: true;
    };

/** A tool as declared to a provider: a function with a JSON Schema. */
export interface ProviderTool {
  name: string;
  description: string;
  parameters: unknown;
  /**
   * The client asked for deferred loading (`defer_loading: true`): the tool goes behind Tool Search instead
   * of being declared up front. Set by the gateway's request parsers; providers never send it. Default false.
   */
  deferLoading?: boolean;
}

/** One model request. */
export interface ProviderRequest {
  /** The model id at the provider (without the `provider/` prefix). */
  model: string;
  /** The system prompt. */
  instructions: string;
  /** The whole conversation so far, oldest first. */
  input: readonly ConversationItem[];
  tools: readonly ProviderTool[];
  maxOutputTokens?: number;
  signal?: AbortSignal;
  /**
   * When set, the provider streams its answer and calls this with each piece of assistant text as it
   * arrives, in order; the response it resolves with is the same as without it. Providers that cannot
   * stream may ignore it (the runner then tells the whole text at once). Default: not streamed.
   */
  onTextDelta?: (delta: string) => void;
}

/** Token usage of one request, as the provider reported it. */
export interface ProviderUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache, when it reports them (included in `inputTokens`). */
  cacheReadInputTokens?: number;
  /** Input tokens written to the provider's prompt cache, when it reports them (Anthropic). */
  cacheCreationInputTokens?: number;
}

/** One model response: assistant messages and function calls, in order. */
export interface ProviderResponse {
  output: ConversationItem[];
  usage?: ProviderUsage;
  /** Bytes of the request body as sent on the wire (UTF-8). */
  requestBytes: number;
  /** The provider's id of this response, when it gives one (`resp_…`, `chatcmpl-…`, `msg_…`). */
  id?: string;
}

/** A model provider (OpenAI, an OpenAI-compatible server, Anthropic, or the mock). */
export interface Provider {
  /** The provider id from the config (`openai`, `ollama`, …). */
  readonly id: string;
  complete(request: ProviderRequest): Promise<ProviderResponse>;
}

/** Options of `createProvider`. */
export type CreateProviderOptions = {
  /** The fetch the client uses (default: the global `fetch`); wrapped to measure request bytes. */
  fetch?: typeof fetch;
  /** Where a missing OpenAI (Anthropic) key is looked up. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
};

/** A provider's settings in the config file (`models.providers.<id>`). */
export interface ProviderSettings {
  api: "openai-responses" | "openai-chat" | "anthropic-messages";
  /** Default: the OpenAI API (`https://api.anthropic.com` for `anthropic-messages`). */
  baseUrl?: string;
  /** Already resolved from `env:NAME`. */
  apiKey?: string;
  localService?: boolean;
  /** Per-request timeout in ms. Default 120,000. */
  timeoutMs?: number;
  /** Retries on 429 and 5xx. Default 2. */
  maxRetries?: number;
  headers?: Record<string, string>;
}
