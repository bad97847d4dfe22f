export { OPENAI_API_KEY_ENV, OPENAI_BASE_URL } from "./api-endpoints.js";
export { createProvider } from "./create-provider.js";
export { OPENAI_SDK, providerSdkProblem } from "./provider-sdks.js";
export { providerKeyProblem } from "./provider-settings.js";
export type * from "./types.js";
