/** Time a client has to send the request headers (Node `headersTimeout`): 15 s. */
export const HEADERS_TIMEOUT_MS = 15_000;

/**
 * Time a client has to send the whole request, headers and body (Node `requestTimeout`): 60 s. It covers
 * receiving the request only; the work and the response are not bounded by it.
 */
export const REQUEST_TIMEOUT_MS = 60_000;

/** How long an idle keep-alive connection stays open after a response (Node `keepAliveTimeout`): 5 s. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * How long a response may wait for its client to read: a connection whose unsent bytes have not moved for
 * this long is destroyed (30 s). It never cuts a response that is merely slow to produce (nothing queued).
 */
export const SEND_TIMEOUT_MS = 30_000;

/** How often connections are checked for the header, request and send timeouts (1 s). */
export const CONNECTIONS_CHECK_INTERVAL_MS = 1_000;

/** Most open connections when the descriptor limit allows more (`maxConnections`). */
export const MAX_CONNECTIONS = 1_024;

/**
 * Descriptors kept free for everything but client connections (files, session logs, MCP children and their
 * pipes, sockets to providers, Node itself): at least 128, or a quarter of the soft limit when that is more.
 */
export const RESERVED_DESCRIPTORS_MIN = 128;
/** The share of the soft descriptor limit kept for everything but client connections (see above). */
export const RESERVED_DESCRIPTORS_SHARE = 0.25;

/**
 * Beyond the connection cap, this share of it (at least 16) more connections are accepted only to be answered
 * 503 with `Retry-After`; connections beyond that are closed at once, unanswered.
 */
export const REFUSAL_SHARE = 0.125;
/** The least number of connections answered 503 beyond the cap (see REFUSAL_SHARE). */
export const REFUSAL_MIN = 16;

/** From this share of the cap on, the server is under pressure: idle and header-less sockets are closed early. */
export const PRESSURE_SHARE = 0.75;

/**
 * Under pressure, a connection without a request in progress (never sent one, sent only part of its headers,
 * or idle between keep-alive requests) is closed after this long (1 s); a refused connection that sends no
 * request is closed after it too.
 */
export const PRESSURE_IDLE_MS = 1_000;

/** `Retry-After` (seconds) of the 503 sent to a connection beyond the cap. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** A repeated error of one cause is logged once, then as a count at most this often (1 min). */
export const REPEATED_ERROR_REPORT_MS = 60_000;

/** Most distinct causes the repeat-limited log remembers per period (bounds its memory; others log in full). */
export const MAX_TRACKED_CAUSES = 1_000;

/** After the server stops listening, connections still open after this long are cut (5 s). */
export const CONNECTION_CLOSE_GRACE_MS = 5_000;
