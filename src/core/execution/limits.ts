/** Per-call execution timeout when the executor's options give none (two minutes). */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
/** Largest usable timeout: the biggest delay a Node timer accepts. Larger values are clamped to it. */
export const MAX_TOOL_TIMEOUT_MS = 2_147_483_647;

/** Bound of one wrapped network text block, markers included; longer content ends `[truncated]`. */
export const MAX_NETWORK_TEXT_CHARS = 20_000;
/** Longest source id written into an untrusted-content marker. */
export const MAX_SOURCE_LABEL_CHARS = 200;
/** Bound of a local (trusted) tool's error message in a TOOL_FAILED error. */
export const MAX_LOCAL_ERROR_CHARS = 20_000;
/** Bound of an ajv compile message quoted in an invalid-input-schema error. */
export const MAX_SCHEMA_ERROR_CHARS = 300;

/** Most distinct validation errors listed in one message; the rest are counted (`and N more`). */
export const MAX_LISTED_VALIDATION_ERRORS = 8;
/** Most ajv errors examined when describing one validation failure (bounds the work on hostile input). */
export const MAX_EXAMINED_VALIDATION_ERRORS = 100;
/** Longest property path quoted in a validation error; longer paths are cut with `...`. */
export const MAX_ERROR_PATH_CHARS = 80;
/** Longest JSON literal quoted in a validation error (enum values, const, pattern). */
export const MAX_ERROR_VALUE_CHARS = 60;
/** Most enum values listed in one validation error. */
export const MAX_LISTED_ENUM_VALUES = 8;
/** Most argument keys read when looking for misspelt properties in one object. */
export const MAX_SUGGESTION_KEYS = 1_000;

/** Most compiled validators (and compile failures) a cache of its own keeps; the least recently used go first. */
export const MAX_CACHED_VALIDATORS = 256;
/** Most compiled validators (and compile failures) the process-wide cache every executor shares keeps (LRU). */
export const MAX_SHARED_VALIDATORS = 4_096;
/** Deepest schema copied for compilation; deeper schemas are reported as invalid. */
export const MAX_SCHEMA_DEPTH = 256;
/** Most schema nodes copied for compilation; larger schemas are reported as invalid. */
export const MAX_SCHEMA_NODES = 100_000;
