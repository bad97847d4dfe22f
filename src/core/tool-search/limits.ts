/** How many rendered directories are kept for reuse across instances (keyed by snapshot fingerprint, mode, budget). */
export const DIRECTORY_CACHE_SIZE = 64;

/** Default `searchDefaultLimit`: results per query when the model gives no limit. */
export const DEFAULT_SEARCH_DEFAULT_LIMIT = 8;
/** Default `maxSearchLimit`: the cap on any requested limit. */
export const DEFAULT_MAX_SEARCH_LIMIT = 20;
/** Automatic `searchDefaultLimit` for local models when `tools.toolSearch` is unset. */
export const LOCAL_SEARCH_DEFAULT_LIMIT = 5;
/** Automatic `maxSearchLimit` for local models when `tools.toolSearch` is unset. */
export const LOCAL_MAX_SEARCH_LIMIT = 10;
/** Highest `maxSearchLimit` accepted; larger values are clamped to it. */
export const MAX_SEARCH_LIMIT_CEILING = 50;
/** Lowest value either limit can take. */
export const MIN_SEARCH_LIMIT = 1;
/** How many search indexes are kept for reuse across instances (keyed by snapshot fingerprint). */
export const SHARED_INDEX_CACHE_SIZE = 16;
/** Most catalog entries the shared indexes may hold in all (a larger catalog's index is still built, not kept). */
export const SHARED_INDEX_MAX_ENTRIES = 250_000;
/** Sets of visible entries kept per snapshot (one per distinct set of direct tool names). */
export const VISIBLE_SETS_PER_SNAPSHOT = 8;
/** Base URLs and host names whose local-model answer is remembered (all forgotten beyond it). */
export const MAX_REMEMBERED_HOSTS = 256;
