export { type CreateProviderOptions, createProvider } from "./create-provider.js";
export {
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  OPENAI_API_KEY_ENV,
  OPENAI_BASE_URL,
} from "./limits.js";
export { providerKeyProblem } from "./provider-settings.js";
export type * from "./types.js";
