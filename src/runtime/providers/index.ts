export {
  ANTHROPIC_API_KEY_ENV,
  ANTHROPIC_BASE_URL,
  OPENAI_API_KEY_ENV,
  OPENAI_BASE_URL,
} from "./api-endpoints.js";
export { createProvider } from "./create-provider.js";
export { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from "./limits.js";
export { OPENAI_SDK, providerSdkProblem } from "./provider-sdks.js";
export { providerKeyProblem } from "./provider-settings.js";
export { toolDeclarationBytes } from "./tool-declaration-bytes.js";
export type * from "./types.js";
