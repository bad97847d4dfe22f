/** How long one upstream server may take to start, initialise and list its tools (15 s). */
export const DEFAULT_START_TIMEOUT_MS = 15_000;
/** How long one upstream `tools/call` may take before it is cancelled (60 s). */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** First delay before restarting a server that stopped after it was ready. */
export const RESTART_BACKOFF_INITIAL_MS = 1_000;
/** Longest delay between restart attempts (the backoff doubles up to this). */
export const RESTART_BACKOFF_MAX_MS = 30_000;
/** A server that stayed up this long before it stopped restarts with the initial delay again. */
export const RESTART_BACKOFF_RESET_MS = 60_000;

/** Most `tools/list` pages followed for one server; a server that pages on forever is cut here. */
export const MAX_TOOL_LIST_PAGES = 1_000;
/** Most tools kept from one server; the rest are left out and reported. */
export const MAX_TOOLS_PER_SERVER = 10_000;
/** Longest usable tool name; longer names (and names with control characters) are left out and reported. */
export const MAX_TOOL_NAME_CHARS = 256;

/** Largest stdio message buffered from one upstream server (a bigger message fails that server's read). */
export const MAX_STDIO_BUFFER_BYTES = 32 * 1024 * 1024;
/** Longest line of a server's stderr (or of an error) copied into toolsift's log. */
export const MAX_LOGGED_LINE_CHARS = 500;
/** Most stderr lines of one server copied into the log per start; the rest are counted, not copied. */
export const MAX_LOGGED_STDERR_LINES = 200;

/** Longest message about a pinned tool (a schema that cannot be pinned, arguments that do not validate). */
export const MAX_PIN_ERROR_CHARS = 1_000;
