export { cachedPrefixBytes } from "./prompt-cache.js";
export { DEFAULT_MOCK_CLI_PORT, startMockOpenAI } from "./start-mock-openai.js";
export type { MockOpenAI, RecordedRequest } from "./types.js";
