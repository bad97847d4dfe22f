/** Signed-in console sessions kept at once; past it the least recently used one is dropped (signed out). */
export const MAX_CONSOLE_SESSIONS = 256;

/**
 * Signed-in console sessions one key may hold; its least recently used is dropped past it, so one key's holder
 * cannot push everyone else's sessions out of `MAX_CONSOLE_SESSIONS`.
 */
export const MAX_CONSOLE_SESSIONS_PER_KEY = 16;

/** Sessions waiting for a login (a page opened, no token pasted yet); past it the oldest is dropped. */
export const MAX_PENDING_LOGINS = 256;

/** A signed-in console session unused this long is dropped: 30 minutes. */
export const CONSOLE_IDLE_MS = 30 * 60 * 1000;

/** A signed-in console session ends this long after its login, used or not: 12 hours. */
export const CONSOLE_MAX_AGE_MS = 12 * 60 * 60 * 1000;

/** A page waiting for a login keeps its session this long: 10 minutes. */
export const PENDING_LOGIN_MS = 10 * 60 * 1000;

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

/** How often a live session stream re-reads the session from the store when nothing woke it: 500 ms. */
export const LIVE_SESSION_REREAD_MS = 500;

/** How often a live approvals stream re-reads the pending approvals when nothing woke it: 1 s. */
export const LIVE_APPROVALS_REREAD_MS = 1000;

/** A live stream writes a heartbeat line after this long without another line: 15 s. */
export const LIVE_HEARTBEAT_MS = 15_000;

/** A live stream ends after this long (the page opens a new one, which checks the session again): 10 minutes. */
export const LIVE_STREAM_MAX_MS = 10 * 60 * 1000;

/** Least time between two reads of one live stream when changes of this process wake it: 50 ms. */
export const LIVE_WAKE_GAP_MS = 50;
