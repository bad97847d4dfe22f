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
