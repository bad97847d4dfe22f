/** Per-request timeout when `timeoutMs` is not set. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** Retries on 429, 5xx, timeouts and connection failures when `maxRetries` is not set. */
export const DEFAULT_MAX_RETRIES = 2;

/** Largest `maxRetries` accepted: more only delays a clear error. */
export const MAX_RETRIES_CEILING = 10;

/** Longest slice of a provider's own error message quoted in a `PROVIDER_FAILED` message. */
export const MAX_PROVIDER_ERROR_CHARS = 500;

/**
 * How often one `complete()` re-sends a Messages answer that stopped with `pause_turn` so the model can
 * finish its turn; past this the answer so far is returned as it is.
 */
export const MAX_PAUSE_TURN_CONTINUATIONS = 3;
