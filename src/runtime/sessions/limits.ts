/** Longest agent id or session key (the pattern's bound, for messages). */
export const MAX_SESSION_KEY_CHARS = 128;

/** Deepest nesting copied by redactSecrets; deeper values become TRUNCATED. */
export const MAX_REDACTION_DEPTH = 64;

/** Most values (objects, arrays, primitives) visited by one redactSecrets call; the rest become TRUNCATED. */
export const MAX_REDACTION_NODES = 200_000;

/** Longest JSON-looking string that is parsed and redacted structurally; longer ones get the text patterns. */
export const MAX_JSON_REDACTION_CHARS = 1_048_576;

/** Longest value quoted in an invalid-key message. */
export const MAX_QUOTED_KEY_CHARS = 40;

/** Shortest value a run remembers as a known secret: shorter ones would redact common words everywhere. */
export const MIN_KNOWN_SECRET_CHARS = 4;

/** How many levels of JSON-in-JSON escaping of a known secret are also redacted. */
export const MAX_KNOWN_SECRET_ESCAPES = 3;

/** How long a state-directory probe result is reused (ms): keeps `/healthz` cheap, recovery seen within it. */
export const STATE_PROBE_CACHE_MS = 1_000;

/** Most session log files kept open between writes; past it the least recently used is closed. */
export const MAX_OPEN_SESSION_FILES = 64;

/** A session log file with no write for this long (ms) is closed. */
export const SESSION_FILE_IDLE_MS = 2_000;

/** Largest session log `read` reads synchronously (from the page cache); a larger one is read on the thread pool. */
export const MAX_SYNC_SESSION_READ_BYTES = 1_048_576;

/**
 * How many JSON texts (call arguments, tool outputs) parsed during one stretch of synchronous work keep their
 * parsed value until it ends: the runner learns a text's secrets and then logs it, parsing it twice in a row.
 */
export const MAX_REMEMBERED_JSON_TEXTS = 16;

/**
 * Session files `lstat`ed synchronously per turn of the event loop when listing sessions (`statSessions`):
 * about a millisecond of work on a local disk, so a list of 96,000 sessions yields to other requests
 * some hundreds of times instead of holding the loop for its whole walk.
 */
export const SESSION_STATS_PER_TURN = 512;

/**
 * Most sessions one page of a search by content (status, text) reads: past it the page ends early with
 * `scannedTo`, and the next page goes on from there.
 */
export const MAX_CONTENT_SCAN_SESSIONS = 200;

/** Most bytes of session logs one page of a search by content reads (at least one session): 16 MiB. */
export const MAX_CONTENT_SCAN_BYTES = 16 * 1024 * 1024;

/** Sessions a store reads at once while it searches by content. */
export const CONTENT_READ_BATCH = 20;
