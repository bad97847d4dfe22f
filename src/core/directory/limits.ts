/** The directory budget in characters when the context window is unknown, and its ceiling otherwise. */
export const DEFAULT_DIRECTORY_BUDGET = 18_000;

/** The smallest budget a known context window scales to. */
export const MIN_DIRECTORY_BUDGET = 768;

/** Context-window tokens per directory character: a window of N tokens gives floor(N / 10) characters. */
export const TOKENS_PER_DIRECTORY_CHAR = 10;

/** Description lengths tried, in order, when the full directory is over budget (then names only). */
export const DIRECTORY_DESCRIPTION_CUTS: readonly number[] = Object.freeze([180, 64]);

/** Longest tool name or owner listed in a row; longer ones are omitted (still searchable and callable). */
export const MAX_LISTED_NAME_CHARS = 128;
