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
