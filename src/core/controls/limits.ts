/** Most queries in one `tool_search` batch (a non-blank scalar `query` beside the batch counts as one). */
export const MAX_BATCH_QUERIES = 16;
/** Most results a batch may ask for: the sum of the effective limits of its queries. */
export const MAX_BATCH_TOTAL_RESULTS = 50;
/** Most UTF-8 bytes of `JSON.stringify(<array of the batch's query strings>)`. */
export const MAX_BATCH_QUERY_BYTES = 512;
/** Most graphemes in one batch item's `query`. */
export const MAX_BATCH_QUERY_GRAPHEMES = 512;

/** Descriptions in a batch are whitespace-collapsed and cut to this many characters (with "..."). */
export const BATCH_DESCRIPTION_CHARS = 180;
/** Metadata budget of one batch candidate, in characters of its field values (DESIGN.md). */
export const BATCH_CANDIDATE_METADATA_CHARS = 2_000;
/** Most characters of a whole batch response's model-facing text (compact JSON). */
export const MAX_BATCH_RESPONSE_CHARS = 4_000;

/** Most characters of a label in a model-facing text (the catalog and `details` keep the full label). */
export const MAX_MODEL_LABEL_CHARS = 512;
/** Most characters of a description in a model-facing text (the catalog and `details` keep it whole). */
export const MAX_MODEL_DESCRIPTION_CHARS = 8_192;

/** Most characters of a model-supplied selector quoted back in an error message. */
export const MAX_QUOTED_SELECTOR_CHARS = 200;
/** Most suggestions after "Did you mean:". */
export const MAX_SUGGESTIONS = 3;
/** Characters of a selector considered when looking for suggestions. */
export const MAX_SUGGESTION_INPUT_CHARS = 200;

/** Deepest nesting accepted in `tool_call` arguments (the arguments object itself is level 1). */
export const MAX_ARGS_DEPTH = 128;
/** Most values (objects, arrays and leaves) accepted in `tool_call` arguments. */
export const MAX_ARGS_NODES = 200_000;

/** Most characters of one schema rendered into `tool_describe`'s model-facing text. */
export const MAX_DESCRIBE_SCHEMA_CHARS = 65_536;
/** Most characters of a target's `details` rendered into `tool_call`'s model-facing text. */
export const MAX_CALL_DETAILS_CHARS = 1_000_000;
/** Most values visited when serialising one untrusted value for the model. */
export const MAX_MODEL_JSON_NODES = 100_000;
/** Most characters of the tool id and name repeated in `tool_call`'s model-facing envelope. */
export const MAX_ENVELOPE_FIELD_CHARS = 300;

/** Most unmatched query words named in a no-match answer. */
export const MAX_UNMATCHED_WORDS = 8;
/** Most characters of one query word quoted back in a no-match answer. */
export const MAX_UNMATCHED_WORD_CHARS = 64;
/** Most catalog words suggested in a no-match answer. */
export const MAX_NEAR_WORDS = 3;
