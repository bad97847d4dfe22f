/** Measured figures and assertion outcomes of one lane. */
export interface LaneReport {
  lane: string;
  declaredTools: number;
  requestBytes: number;
  systemPromptChars: number;
  searches: number;
  describes: number;
  calls: number;
  wallMs: number;
  answer: string;
  /**
   * Anthropic lanes only: bytes of the last request's prefix up to its last `cache_control` breakpoint
   * (tools and system prompt), and the input tokens the lane's requests read from the prompt cache in all.
   */
  cache?: { prefixBytes: number; readTokens: number };
  /** Streaming lanes only: what the stream looked like from the client. */
  stream?: StreamFigures;
  failures: string[];
}

/** A streaming lane's figures, times in ms from sending the request. */
export interface StreamFigures {
  frames: number;
  textDeltas: number;
  firstTextMs: number;
  lastFrameMs: number;
  /** The last frame: `response.completed` (Responses) or `[DONE]` (Chat). */
  terminal: string;
}

/** The whole scenario's report, as printed and written to JSON. */
export interface ScenarioReport {
  scenario: "tool-search-gateway-e2e";
  providerMode: "mock-openai";
  startedAt: string;
  lanes: LaneReport[];
  /** Failures that compare lanes (search lanes against direct). */
  comparisons: string[];
  passed: boolean;
  /** The scenario's folder (plugin, each lane's config and state), when it was kept (`keepFiles`). */
  files?: string;
}
