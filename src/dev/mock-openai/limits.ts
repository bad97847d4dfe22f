/** Largest request body the mock accepts (a direct request with thousands of tool schemas fits). */
export const MAX_MOCK_BODY_BYTES = 64 * 1024 * 1024;

/** Requests kept in the debug log; the oldest are dropped past this count. */
export const MAX_RECORDED_REQUESTS = 10_000;

/** Body bytes kept in the debug log; the oldest requests are dropped past this total. */
export const MAX_RECORDED_BYTES = 256 * 1024 * 1024;

/** Deepest nesting the planner follows when it builds arguments from a schema or a signature. */
export const MAX_ARGUMENT_DEPTH = 8;

/** Longest user text echoed back in the mock's `mock: <text>` answer. */
export const MAX_ECHO_CHARS = 2_000;

/** Longest piece delay the mock accepts, in ms (a paced answer of hundreds of words still ends). */
export const MAX_PIECE_DELAY_MS = 1_000;

/** Prompt-cache prefixes the mock remembers for `/v1/messages` usage figures; the oldest are forgotten past this. */
export const MAX_CACHED_PREFIXES = 10_000;
