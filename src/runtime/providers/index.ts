export { type CreateProviderOptions, createProvider } from "./create-provider.js";
export {
  ANTHROPIC_API_KEY_ENV,
  ANTHROPIC_BASE_URL,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  OPENAI_API_KEY_ENV,
  OPENAI_BASE_URL,
} from "./limits.js";
export { providerKeyProblem } from "./provider-settings.js";
export type * from "./types.js";
