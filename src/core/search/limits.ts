/** Deepest schema level walked for parameter text (the root schema is level 0). */
export const MAX_PARAMETER_TEXT_DEPTH = 4;
/** Most schema nodes visited per entry: bounds huge or cyclic schemas. */
export const MAX_PARAMETER_TEXT_NODES = 512;
/** Most items read from one schema array (`anyOf`, tuple `items`, ...). */
export const MAX_SCHEMA_ARRAY_ITEMS = 64;
/** Most characters of parameter text kept per entry. */
export const MAX_PARAMETER_TEXT_CHARS = 16_384;

/** Tokens longer than this (in UTF-16 code units) are dropped: they are blobs, not words. */
export const MAX_TOKEN_CHARS = 64;
/** Most terms a query is scored with, over all its sentences (typed terms first within a sentence). */
export const MAX_QUERY_TERMS = 128;
/** Most sentences of a query scored separately; the rest of the text joins the last one. */
export const MAX_QUERY_SENTENCES = 16;
/**
 * Words the shared build vocabulary keeps between index builds; past this many, the next build starts a fresh
 * vocabulary. A catalog of 100,000 tools with unique compound names brings about 200,000 words (each name and
 * its numeric part), so this leaves room for it with margin: at about 120 bytes a word, some 60 MB at most.
 */
export const MAX_SHARED_WORDS = 500_000;
/** Most distinct words whose terms are memoised (the memo is emptied when full). */
export const MAX_CACHED_WORDS = 50_000;
