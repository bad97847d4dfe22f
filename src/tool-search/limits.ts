/** How many rendered directories are kept for reuse across instances (keyed by snapshot fingerprint, mode, budget). */
export const DIRECTORY_CACHE_SIZE = 64;
/** Bytes of randomness in a counter scope (24 lowercase hex characters). */
export const COUNTER_SCOPE_BYTES = 12;
