/** The directory budget in characters when the context window is unknown, and its ceiling otherwise. */
export const DEFAULT_DIRECTORY_BUDGET = 18_000;

/** The smallest budget a known context window scales to. */
export const MIN_DIRECTORY_BUDGET = 768;

/** Longest tool name or owner listed in a row; longer ones are omitted (still searchable and callable). */
export const MAX_LISTED_NAME_CHARS = 128;
