/** One request the mock received, exactly as it arrived. */
export type RecordedRequest = {
  /** Position in the log: 1 for the first request, increasing by one per request. */
  cursor: number;
  method: string;
  /** The path without the query string (`/v1/responses`). */
  path: string;
  /** The raw body, decoded as UTF-8 ("" for a request without one). */
  body: string;
  /** Size of the raw body in bytes, as received. */
  bytes: number;
  /** ISO 8601 time the request arrived. */
  at: string;
};

/** A running mock OpenAI provider. */
export type MockOpenAI = {
  /** `http://<host>:<port>/v1`: the base URL to give an OpenAI client. */
  baseUrl: string;
  port: number;
  /** Every `/v1/...` request received so far, oldest first (a copy). */
  requests(): RecordedRequest[];
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
};

/** Where the mock listens. */
export type MockOpenAIOptions = {
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /**
   * Simulated generation time: milliseconds before each streamed piece (a word of text, a piece of
   * arguments); a whole answer waits the sum of its pieces' delays, so both take as long. Default: the
   * `TOOLSIFT_MOCK_PIECE_DELAY_MS` environment variable, else 0 (no pacing). For benchmarks.
   */
  pieceDelayMs?: number;
};
