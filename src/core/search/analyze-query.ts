import { EXPANSION_GROUPS } from "./expansion-groups.js";
import { LEXICON_GROUPS } from "./lexicon-groups.js";
import { MAX_QUERY_SENTENCES, MAX_QUERY_TERMS } from "./limits.js";
import { EXPANSION_WEIGHT, LEXICON_WEIGHT } from "./ranking-parameters.js";
import { type SharedVocabulary, vocabularyForQueries } from "./shared-vocabulary.js";
import { compileTriggers, type TriggerTable } from "./trigger-table.js";

/** One term a query is scored with. */
export type QueryTerm = {
  readonly term: string;
  /**
   * 1 for a typed word; `LEXICON_WEIGHT` for a synonym of a typed word (from the lexicon); `EXPANSION_WEIGHT`
   * for a term added by intent expansion.
   */
  readonly weight: number;
  /**
   * True when the user typed it or a synonym of it (a hit on it makes an entry a literal match, and the
   * diversity step counts it); false for an intent expansion.
   */
  readonly literal: boolean;
};

const TRIGGERS: TriggerTable = compileTriggers(EXPANSION_GROUPS);
const LEXICON: TriggerTable = compileTriggers(LEXICON_GROUPS);
/** A sentence ends at `.`, `?`, `!` or `;` followed by a space or the end, or at a line break. */
const SENTENCE_END = /[.?!;]+(?=\s|$)|[\r\n]+/u;

/**
 * The weighted terms of one query text: each typed term once at weight 1 (in order of appearance), then the
 * synonyms of every lexicon group a typed word or two-word phrase fires, at `LEXICON_WEIGHT`, then the terms
 * of every expansion group a typed word or two-word phrase triggers, at `EXPANSION_WEIGHT`; a term is kept
 * once, at its first (highest) weight. Synonyms never trigger expansions. Empty for a text with no usable
 * word. At most `maxTerms` terms, typed ones first.
 */
export function analyzeQuery(query: string, maxTerms = MAX_QUERY_TERMS): QueryTerm[] {
  const vocabulary = vocabularyForQueries();
  const { words } = vocabulary;
  const wordCount = words.scan(query);
  const scanned = words.scanned;
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < wordCount; index += 1) {
    const word = scanned[index]!;
    for (let at = words.termStarts[word]!; at < words.termStarts[word + 1]!; at += 1) {
      const term = vocabulary.terms[words.flatTermIds[at]!]!;
      if (seen.has(term) || terms.length >= maxTerms) continue;
      seen.add(term);
      terms.push({ term, weight: 1, literal: true });
    }
  }
  if (terms.length === 0) return terms;
  const typedCount = terms.length;
  for (const group of firedByPosition(LEXICON, vocabulary, wordCount)) {
    for (const term of LEXICON.adds[group]!) {
      if (seen.has(term) || terms.length >= maxTerms) continue;
      seen.add(term);
      terms.push({ term, weight: LEXICON_WEIGHT, literal: true });
    }
  }
  const triggered = new Set<number>();
  for (let index = 0; index < typedCount; index += 1)
    for (const group of TRIGGERS.byTerm.get(terms[index]!.term) ?? []) triggered.add(group);
  for (let index = 0; index + 1 < wordCount; index += 1) {
    for (const group of phraseAt(TRIGGERS, vocabulary, index) ?? []) triggered.add(group);
  }
  for (const group of [...triggered].sort((left, right) => left - right)) {
    for (const term of TRIGGERS.adds[group]!) {
      if (seen.has(term) || terms.length >= maxTerms) continue;
      seen.add(term);
      terms.push({ term, weight: EXPANSION_WEIGHT, literal: false });
    }
  }
  return terms;
}

/**
 * A query as its sentences' terms (each sentence analysed by `analyzeQuery`), sentences without a usable
 * word left out. At most `MAX_QUERY_SENTENCES` sentences (the rest of the text joins the last one) and
 * `MAX_QUERY_TERMS` terms in all. `[]` when the query has no usable word.
 */
export function analyzeSentences(query: string): QueryTerm[][] {
  const pieces = query.split(SENTENCE_END).filter((piece) => piece.trim().length > 0);
  if (pieces.length > MAX_QUERY_SENTENCES) {
    pieces.splice(MAX_QUERY_SENTENCES - 1, pieces.length, pieces.slice(MAX_QUERY_SENTENCES - 1).join(" "));
  }
  const sentences: QueryTerm[][] = [];
  let budget = MAX_QUERY_TERMS;
  for (const piece of pieces) {
    if (budget <= 0) break;
    const terms = analyzeQuery(piece, budget);
    if (terms.length === 0) continue;
    budget -= terms.length;
    sentences.push(terms);
  }
  return sentences;
}

/**
 * The groups of `table` that the last scan of `vocabulary.words` fires, in group order: at each word, the
 * groups of a two-word phrase starting there when one matches, otherwise the groups of the word's own terms.
 */
function firedByPosition(table: TriggerTable, vocabulary: SharedVocabulary, wordCount: number): number[] {
  const { words, terms } = vocabulary;
  const { scanned, termStarts, flatTermIds } = words;
  const fired = new Set<number>();
  for (let index = 0; index < wordCount; index += 1) {
    const word = scanned[index]!;
    if (index + 1 < wordCount) {
      const phraseGroups = phraseAt(table, vocabulary, index);
      if (phraseGroups !== undefined) {
        for (const group of phraseGroups) fired.add(group);
        continue;
      }
    }
    for (let at = termStarts[word]!; at < termStarts[word + 1]!; at += 1) {
      for (const group of table.byTerm.get(terms[flatTermIds[at]!]!) ?? []) fired.add(group);
    }
  }
  return [...fired].sort((left, right) => left - right);
}

/** The groups of the two-word phrase of `table` at the scanned word `index` and the next one, if any. */
function phraseAt(
  table: TriggerTable,
  vocabulary: SharedVocabulary,
  index: number,
): readonly number[] | undefined {
  const { words } = vocabulary;
  const text = words.wordAt(words.scanned[index]!);
  if (!table.phraseStartLengths.has(text.length)) return undefined;
  const first = text.toLowerCase();
  if (!table.phraseStarts.has(first)) return undefined;
  return table.byPhrase.get(`${first} ${words.wordAt(words.scanned[index + 1]!).toLowerCase()}`);
}
