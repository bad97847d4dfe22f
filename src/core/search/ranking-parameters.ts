/** The ranking parameters of the search index (see DESIGN.md for the ordering rules they serve). */

/** BM25 term-frequency saturation (k1). Tuned on the Seal-Tools dev split. */
export const BM25_K1 = 1.2;

/** Indexed fields of an entry, in posting order: first the name and the label. */
export const FIELD_NAME = 0;

/** The description field. */
export const FIELD_DESCRIPTION = 1;

/** Parameter text (property names and descriptions) of `native` entries. */
export const FIELD_PARAMETERS = 2;

/** The source and owner parts of the id: weak evidence about what a tool does. */
export const FIELD_META = 3;

/** Number of indexed fields. */
export const FIELD_COUNT = 4;

/** BM25F weight per field (a term in the name counts for more than one in a parameter description). */
export const FIELD_WEIGHTS: readonly number[] = Object.freeze([3, 1, 0.5, 0.5]);

/** BM25F length normalisation (b) per field. */
export const FIELD_LENGTH_NORMALISATION: readonly number[] = Object.freeze([1, 0.9, 0.75, 0.5]);

/** Query-term weight of a term added by intent expansion (a typed word weighs 1). */
export const EXPANSION_WEIGHT = 0.35;

/**
 * Name-part coverage bonus (see `addNameCoverage`): a sentence's score gains this much times the idf-weighted
 * share of the document's name parts that the sentence has, so among tools that match the same words the one
 * whose name the request spells out best comes first.
 */
export const NAME_COVERAGE_BONUS = 2.5;

/**
 * Diversity of the literal tier (see `diversify`): a candidate's score is multiplied by
 * `1 − DIVERSITY_PENALTY × (share of its matched typed terms, idf-weighted, already matched by better picks)`.
 */
export const DIVERSITY_PENALTY = 0.5;

/** How many of the best literal matches the diversity step reorders; the rest follow by score. */
export const DIVERSITY_WINDOW = 24;

/**
 * Server evidence (see `server-evidence.ts`): a matched tool's score is multiplied by
 * `1 + SERVER_EVIDENCE_WEIGHT × (its server's score / the best server's score)`, so at most by 1.5.
 */
export const SERVER_EVIDENCE_WEIGHT = 0.5;

/**
 * Sentence scores are divided by `max(best score of the sentence, SENTENCE_FLOOR × best score of any sentence)`:
 * each intent of a multi-sentence query competes on the same scale, but a sentence that matches only weakly
 * (a preamble such as "I need help with a few tasks.") is not inflated.
 */
export const SENTENCE_FLOOR = 0.7;

/**
 * Integer exponent applied to each normalised sentence score before summing: a strong match on one intent
 * beats weak matches on several.
 */
export const SENTENCE_POWER = 3;

/**
 * Query-term weight of a synonym from the lexicon (`lexicon-groups.ts`): the catalog's word for what the user
 * typed. It counts as typed for the tiers and the diversity step, at this weight.
 */
export const LEXICON_WEIGHT = 0.5;

/**
 * Name evidence of a server (see `name-evidence.ts`): while its tools' descriptions are at most this many times
 * longer than their names (summed over the server's tools), the name keeps its full field weight and coverage
 * bonus. One-line descriptions give ratios of 1 to 4, a paragraph with a one-word name and a label about 10.
 */
export const NAME_EVIDENCE_FULL_RATIO = 16;

/**
 * From this description-to-name length ratio on, a server's names count as plain text (field weight 1, no
 * coverage bonus): its descriptions are documents (model cards, READMEs) that already hold the evidence.
 */
export const NAME_EVIDENCE_NONE_RATIO = 24;
