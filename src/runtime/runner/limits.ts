/** Default bound for draining in-flight runs on close. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;

/** Context window assumed for an agent without `contextWindowTokens`, in tokens (history is fitted to it). */
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 128_000;
/**
 * UTF-8 bytes counted as one token when estimating request size. Conservative on purpose: English prose runs
 * about 4 bytes a token, JSON and code about 3, CJK text about 3 (one character, three bytes).
 */
export const ESTIMATED_BYTES_PER_TOKEN = 3;
/** Tokens counted for each conversation item's own framing (type, role, call id) beside its text. */
export const ITEM_OVERHEAD_TOKENS = 8;
/** Tokens kept free for the answer when the request sets no `maxOutputTokens` (at most a quarter of the window). */
export const DEFAULT_OUTPUT_RESERVE_TOKENS = 8_192;
/** Share of the context window the default output reserve may take at most. */
export const MAX_OUTPUT_RESERVE_SHARE = 0.25;
/** Old tool outputs at most this long are kept as they are: replacing them would save next to nothing. */
export const MIN_SHORTENED_OUTPUT_CHARS = 200;

/** Agents whose resolved settings a runner keeps (unknown agent ids are refused, so this is the config's). */
export const MAX_RESOLVED_AGENTS = 256;
