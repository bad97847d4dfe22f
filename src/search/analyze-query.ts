import { EXPANSION_GROUPS, type ExpansionGroup } from "./expansion-groups.js";
import { EXPANSION_WEIGHT, MAX_QUERY_SENTENCES, MAX_QUERY_TERMS } from "./limits.js";
import { vocabularyForQueries } from "./shared-vocabulary.js";
import { wordTerms } from "./tokenize.js";

/** One term a query is scored with. */
export type QueryTerm = {
  readonly term: string;
  /** 1 for a typed word; `EXPANSION_WEIGHT` for a term added by intent expansion. */
  readonly weight: number;
  /** True when the user typed it (a hit on it makes an entry a literal match). */
  readonly literal: boolean;
};

/** Expansion groups indexed by trigger: group numbers by trigger term and by two-word phrase. */
type Triggers = {
  readonly byTerm: ReadonlyMap<string, readonly number[]>;
  readonly byPhrase: ReadonlyMap<string, readonly number[]>;
  /** First words of the phrases, to skip building pairs that cannot match. */
  readonly phraseStarts: ReadonlySet<string>;
  /** Lengths of those first words: a word of another length is skipped without lowercasing it. */
  readonly phraseStartLengths: ReadonlySet<number>;
};

const TRIGGERS: Triggers = compileTriggers(EXPANSION_GROUPS);
/** Per group: the terms it adds (tokenised like a query). */
const EXPANSIONS: readonly (readonly string[])[] = EXPANSION_GROUPS.map((group) =>
  group.adds.flatMap(wordTerms),
);
/** A sentence ends at `.`, `?`, `!` or `;` followed by a space or the end, or at a line break. */
const SENTENCE_END = /[.?!;]+(?=\s|$)|[\r\n]+/u;

/**
 * The weighted terms of one query text: each typed term once at weight 1 (in order of appearance), then the
 * terms of every expansion group a typed word or two-word phrase triggers, at `EXPANSION_WEIGHT`, unless
 * typed too. Empty for a text with no usable word. At most `maxTerms` terms, typed ones first.
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
  const triggered = new Set<number>();
  for (const term of seen) for (const group of TRIGGERS.byTerm.get(term) ?? []) triggered.add(group);
  for (let index = 0; index + 1 < wordCount; index += 1) {
    const text = words.wordAt(scanned[index]!);
    if (!TRIGGERS.phraseStartLengths.has(text.length)) continue;
    const first = text.toLowerCase();
    if (!TRIGGERS.phraseStarts.has(first)) continue;
    const second = words.wordAt(scanned[index + 1]!).toLowerCase();
    for (const group of TRIGGERS.byPhrase.get(`${first} ${second}`) ?? []) triggered.add(group);
  }
  for (const group of [...triggered].sort((left, right) => left - right)) {
    for (const term of EXPANSIONS[group]!) {
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

function compileTriggers(groups: readonly ExpansionGroup[]): Triggers {
  const byTerm = new Map<string, number[]>();
  const byPhrase = new Map<string, number[]>();
  const phraseStarts = new Set<string>();
  const add = (map: Map<string, number[]>, key: string, group: number): void => {
    const list = map.get(key);
    if (!list) map.set(key, [group]);
    else if (!list.includes(group)) list.push(group);
  };
  groups.forEach((group, index) => {
    for (const trigger of group.triggers) {
      const words = trigger.toLowerCase().split(" ");
      if (words.length === 2) {
        add(byPhrase, words.join(" "), index);
        phraseStarts.add(words[0]!);
      } else {
        for (const term of wordTerms(trigger)) add(byTerm, term, index);
      }
    }
  });
  const phraseStartLengths = new Set([...phraseStarts].map((word) => word.length));
  return { byTerm, byPhrase, phraseStarts, phraseStartLengths };
}
