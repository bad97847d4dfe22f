/**
 * How many response ids `previous_response_id` can still refer to in the in-memory store (one process); the
 * oldest are forgotten first.
 */
export const MAX_REMEMBERED_RESPONSES = 10_000;

/** Most bytes of response bodies the in-memory store keeps for `GET /v1/responses/:id` (oldest dropped first). */
export const MAX_STORED_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Signed-in console sessions kept at once; past it the least recently used one is dropped (signed out). */
export const MAX_CONSOLE_SESSIONS = 256;

/**
 * Signed-in console sessions one key may hold; its least recently used is dropped past it, so one key's holder
 * cannot push everyone else's sessions out of `MAX_CONSOLE_SESSIONS`.
 */
export const MAX_CONSOLE_SESSIONS_PER_KEY = 16;

/** Console sessions waiting for a login (a page opened, no token pasted yet); past it the oldest is dropped. */
export const MAX_PENDING_LOGINS = 256;

/** A signed-in console session unused this long is dropped: 30 minutes. */
export const CONSOLE_IDLE_MS = 30 * 60 * 1000;

/** A signed-in console session ends this long after its login, used or not: 12 hours. */
export const CONSOLE_MAX_AGE_MS = 12 * 60 * 60 * 1000;

/** A page waiting for a login keeps its console session this long: 10 minutes. */
export const PENDING_LOGIN_MS = 10 * 60 * 1000;
