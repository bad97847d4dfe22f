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
  failures: string[];
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
}
