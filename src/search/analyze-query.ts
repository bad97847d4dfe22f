import { EXPANSION_GROUPS, type ExpansionGroup } from "./expansion-groups.js";
import { EXPANSION_WEIGHT, MAX_QUERY_SENTENCES, MAX_QUERY_TERMS } from "./limits.js";
import { splitWords, wordTerms } from "./tokenize.js";

/** One term a query is scored with. */
export type QueryTerm = {
  readonly term: string;
  /** 1 for a typed word; `EXPANSION_WEIGHT` for a term added by intent expansion. */
  readonly weight: number;
  /** True when the user typed it (a hit on it makes an entry a literal match). */
  readonly literal: boolean;
};

type CompiledGroup = {
  readonly words: ReadonlySet<string>;
  readonly phrases: readonly string[];
  readonly adds: readonly string[];
};

const COMPILED: readonly CompiledGroup[] = EXPANSION_GROUPS.map(compileGroup);
/** A sentence ends at `.`, `?`, `!` or `;` followed by a space or the end, or at a line break. */
const SENTENCE_END = /[.?!;]+(?=\s|$)|[\r\n]+/u;

/**
 * The weighted terms of one query text: each typed term once at weight 1 (in order of appearance), then the
 * terms of every expansion group a typed word or two-word phrase triggers, at `EXPANSION_WEIGHT`, unless
 * typed too. Empty for a text with no usable word. At most `maxTerms` terms, typed ones first.
 */
export function analyzeQuery(query: string, maxTerms = MAX_QUERY_TERMS): QueryTerm[] {
  const words = splitWords(query);
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  for (const word of words) {
    for (const term of wordTerms(word)) {
      if (seen.has(term) || terms.length >= maxTerms) continue;
      seen.add(term);
      terms.push({ term, weight: 1, literal: true });
    }
  }
  if (terms.length === 0) return terms;
  const typed = [...seen];
  const phrases = new Set<string>();
  for (let index = 0; index + 1 < words.length; index += 1) {
    phrases.add(`${words[index]} ${words[index + 1]}`.toLowerCase());
  }
  for (const group of COMPILED) {
    if (
      !typed.some((term) => group.words.has(term)) &&
      !group.phrases.some((phrase) => phrases.has(phrase))
    ) {
      continue;
    }
    for (const term of group.adds) {
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
  const pieces = query.split(SENTENCE_END);
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

function compileGroup(group: ExpansionGroup): CompiledGroup {
  const words = new Set<string>();
  const phrases: string[] = [];
  for (const trigger of group.triggers) {
    if (trigger.includes(" ")) phrases.push(trigger);
    else for (const term of wordTerms(trigger)) words.add(term);
  }
  return { words, phrases, adds: group.adds.flatMap(wordTerms) };
}
