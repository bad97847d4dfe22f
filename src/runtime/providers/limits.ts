/** The OpenAI API, used when a provider sets no `baseUrl`. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Host of the real OpenAI API: without a key it fails fast instead of sending a doomed request. */
export const OPENAI_API_HOST = "api.openai.com";

/** Environment variable read for the key of the real OpenAI API when the config sets none. */
export const OPENAI_API_KEY_ENV = "OPENAI_API_KEY";

/** Key sent to servers that need none (Ollama, LM Studio, vLLM, …): the client insists on some value. */
export const PLACEHOLDER_API_KEY = "not-set";

/** Per-request timeout when `timeoutMs` is not set. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** Retries on 429, 5xx, timeouts and connection failures when `maxRetries` is not set. */
export const DEFAULT_MAX_RETRIES = 2;

/** Largest `maxRetries` accepted: more only delays a clear error. */
export const MAX_RETRIES_CEILING = 10;

/** Longest slice of a provider's own error message quoted in a `PROVIDER_FAILED` message. */
export const MAX_PROVIDER_ERROR_CHARS = 500;

/** What a provider's key is replaced with when the provider quotes it in an error message. */
export const REDACTED_API_KEY = "[REDACTED]";

/** The Anthropic API, used when an `anthropic-messages` provider sets no `baseUrl` (the client adds `/v1`). */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/** Host of the real Anthropic API: without a key it fails fast instead of sending a doomed request. */
export const ANTHROPIC_API_HOST = "api.anthropic.com";

/** Environment variable read for the key of the real Anthropic API when the config sets none. */
export const ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY";

/**
 * `max_tokens` of an Anthropic request whose caller sets no `maxOutputTokens` (the Messages API requires
 * one): 4,096 is within every current Claude model's output limit.
 */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4_096;

/**
 * How often one `complete()` re-sends a Messages answer that stopped with `pause_turn` so the model can
 * finish its turn; past this the answer so far is returned as it is.
 */
export const MAX_PAUSE_TURN_CONTINUATIONS = 3;
