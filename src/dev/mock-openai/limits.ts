/** Host the mock binds when none is given: loopback only. */
export const DEFAULT_MOCK_HOST = "127.0.0.1";

/** Largest request body the mock accepts (a direct request with thousands of tool schemas fits). */
export const MAX_MOCK_BODY_BYTES = 64 * 1024 * 1024;

/** Requests kept in the debug log; the oldest are dropped past this count. */
export const MAX_RECORDED_REQUESTS = 10_000;

/** Body bytes kept in the debug log; the oldest requests are dropped past this total. */
export const MAX_RECORDED_BYTES = 256 * 1024 * 1024;

/** The model id the mock reports in `/v1/models` and when a request names none. */
export const MOCK_MODEL_ID = "toolsift-mock";

/** Characters counted as one token in the mock's usage figures. */
export const CHARS_PER_TOKEN = 4;

/** Deepest nesting the planner follows when it builds arguments from a schema or a signature. */
export const MAX_ARGUMENT_DEPTH = 8;

/** Value the planner gives a required string (and an argument of unknown type). */
export const PLACEHOLDER_STRING = "qa";

/** Value the planner gives a required number or integer (raised to a declared minimum). */
export const PLACEHOLDER_NUMBER = 1;

/** Longest user text echoed back in the mock's `mock: <text>` answer. */
export const MAX_ECHO_CHARS = 2_000;

/** Port `toolsift mock-openai` listens on without `--port` (the gateway's default port plus one). */
export const DEFAULT_MOCK_CLI_PORT = 18_790;

/** Code points per piece when the mock streams function-call arguments (text is streamed word by word). */
export const STREAM_ARGUMENT_PIECE_CHARS = 8;

/** Environment variable that sets the mock's piece delay when `pieceDelayMs` is not given (default 0). */
export const PIECE_DELAY_ENV = "TOOLSIFT_MOCK_PIECE_DELAY_MS";

/** Longest piece delay the mock accepts, in ms (a paced answer of hundreds of words still ends). */
export const MAX_PIECE_DELAY_MS = 1_000;

/** Prompt-cache prefixes the mock remembers for `/v1/messages` usage figures; the oldest are forgotten past this. */
export const MAX_CACHED_PREFIXES = 10_000;
