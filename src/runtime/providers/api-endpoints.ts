/** The OpenAI API, used when a provider sets no `baseUrl`. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Host of the real OpenAI API: without a key it fails fast instead of sending a doomed request. */
export const OPENAI_API_HOST = "api.openai.com";

/** Environment variable read for the key of the real OpenAI API when the config sets none. */
export const OPENAI_API_KEY_ENV = "OPENAI_API_KEY";

/** The Anthropic API, used when an `anthropic-messages` provider sets no `baseUrl` (the client adds `/v1`). */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/** Host of the real Anthropic API: without a key it fails fast instead of sending a doomed request. */
export const ANTHROPIC_API_HOST = "api.anthropic.com";

/** Environment variable read for the key of the real Anthropic API when the config sets none. */
export const ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY";

/** Key sent to servers that need none (Ollama, LM Studio, vLLM, …): the client insists on some value. */
export const PLACEHOLDER_API_KEY = "not-set";
