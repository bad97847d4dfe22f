export { DEFAULT_MOCK_CLI_PORT } from "./limits.js";
export { type PlannerInput, planResponse } from "./plan-response.js";
export { cachedPrefixBytes } from "./prompt-cache.js";
export { startMockOpenAI } from "./start-mock-openai.js";
export type { MockOpenAI, MockOpenAIOptions, RecordedRequest } from "./types.js";
