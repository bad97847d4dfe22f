/**
 * The console sessions' bounds and lifetimes (signed-in, per key, waiting for a login; idle, in all, waiting)
 * are the state's, `src/runtime/state/limits.ts`: every session store keeps them, the memory one and a fleet's
 * database alike. The cookie lives as long as a session may.
 */
export { CONSOLE_IDLE_MS, CONSOLE_MAX_AGE_MS } from "../../runtime/state/index.js";

/** Largest body a console POST may carry (a token, an approval note): 16 KiB. */
export const MAX_CONSOLE_BODY_BYTES = 16 * 1024;

/** Longest token the login form accepts, in characters. */
export const MAX_TOKEN_CHARS = 4096;

/** Longest text filter of the sessions page, in characters. */
export const MAX_FILTER_CHARS = 200;

/** Live streams (`/console/api/live/*`) one gateway process holds open at once; past it a new one is 429. */
export const MAX_LIVE_STREAMS = 64;

/** Live streams one console session holds open at once (a browser with a few tabs); past it a new one is 429. */
export const MAX_LIVE_STREAMS_PER_SESSION = 4;

/**
 * How often a live session stream re-reads the session when nothing woke it: 5 s. Appends wake it at once
 * (this process's, and on PostgreSQL every gateway's through NOTIFY); the re-read catches what a wake-up
 * missed (a notification lost while the LISTEN connection was down).
 */
export const LIVE_SESSION_REREAD_MS = 5_000;

/**
 * How often a live approvals stream re-reads the pending approvals when nothing woke it: 5 s. Requests and
 * decisions wake it at once (on PostgreSQL every gateway's, through NOTIFY); the re-read catches a lost
 * notification and requests whose gateway died (they leave the list untold).
 */
export const LIVE_APPROVALS_REREAD_MS = 5_000;

/** A live stream writes a heartbeat line after this long without another line: 15 s. */
export const LIVE_HEARTBEAT_MS = 15_000;

/** A live stream ends after this long (the page opens a new one, which checks the session again): 10 minutes. */
export const LIVE_STREAM_MAX_MS = 10 * 60 * 1000;

/**
 * Least time between two reads of one live stream when changes wake it: 250 ms. A read is the whole session
 * (the store reads a log whole), so a view of a session that grows fast costs at most four reads a second.
 */
export const LIVE_WAKE_GAP_MS = 250;
