import { MAX_CACHED_WORDS, MAX_SHARED_WORDS } from "./limits.js";
import { wordTerms } from "./tokenize.js";
import { WordTable } from "./word-table.js";

/**
 * The words and terms met while building indexes, shared by every index of the process: each distinct word is
 * tokenised once, and its terms are interned once as vocabulary term numbers. Rebuilding an index for a
 * changed catalog (every run of a gateway) then costs a hash probe per word, not a tokenisation.
 */
export type SharedVocabulary = {
  /** Words to vocabulary term numbers. */
  readonly words: WordTable;
  /** Term text by vocabulary term number. */
  readonly terms: readonly string[];
  /** Vocabulary term number by term text. */
  readonly numberOfTerm: ReadonlyMap<string, number>;
};

let current: SharedVocabulary | undefined;
let queries: SharedVocabulary | undefined;

/**
 * The vocabulary for the next index build. It is started afresh when it holds more than `maxWords`
 * words (never during a build: a build may grow it past the cap), so the memory it keeps stays bounded.
 */
export function vocabularyForBuild(maxWords = MAX_SHARED_WORDS): SharedVocabulary {
  if (current === undefined || current.words.size > maxWords) current = createVocabulary();
  return current;
}

/**
 * The vocabulary of query words, apart from the build one (queries never grow an index's vocabulary): each
 * distinct query word is tokenised once, and its terms are the same string objects from query to query, so
 * index lookups hash them once. Started afresh once it holds more than `maxWords` words; call it before each
 * scan (never during one).
 */
export function vocabularyForQueries(maxWords = MAX_CACHED_WORDS): SharedVocabulary {
  if (queries === undefined || queries.words.size > maxWords) queries = createVocabulary();
  return queries;
}

/** A new, empty vocabulary (the shared one comes from `vocabularyForBuild`). */
export function createVocabulary(): SharedVocabulary {
  const terms: string[] = [];
  const numberOfTerm = new Map<string, number>();
  const buffer: number[] = [];
  const words = new WordTable((word) => {
    const forms = wordTerms(word);
    buffer.length = forms.length;
    for (let index = 0; index < forms.length; index += 1) {
      const term = forms[index]!;
      let number = numberOfTerm.get(term);
      if (number === undefined) {
        number = terms.length;
        terms.push(term);
        numberOfTerm.set(term, number);
      }
      buffer[index] = number;
    }
    return buffer;
  });
  return { words, terms, numberOfTerm };
}
