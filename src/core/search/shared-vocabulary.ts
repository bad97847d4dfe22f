import { asciiCompoundParts } from "./ascii-parts.js";
import { MAX_CACHED_WORDS, MAX_SHARED_WORDS } from "./limits.js";
import { formTerm, wordTerms } from "./tokenize.js";
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
  const intern = (term: string): number => {
    let number = numberOfTerm.get(term);
    if (number === undefined) {
      number = terms.length;
      terms.push(term);
      numberOfTerm.set(term, number);
    }
    return number;
  };
  const buffer: number[] = [];
  const words: WordTable = new WordTable((word) => {
    const parts = asciiCompoundParts(word);
    if (parts !== undefined) return compoundTermNumbers(word, parts);
    const forms = wordTerms(word);
    buffer.length = forms.length;
    for (let index = 0; index < forms.length; index += 1) buffer[index] = intern(forms[index]!);
    return buffer;
  });
  /**
   * The terms of a new ASCII compound, as `wordTerms` has them: the whole word's term, then each part's terms,
   * looked up as words of the table (a known part costs a probe, no string).
   */
  const compoundTermNumbers = (word: string, parts: readonly number[]): number[] => {
    const numbers: number[] = [];
    const whole = formTerm(word.toLowerCase());
    if (whole !== undefined) numbers.push(intern(whole));
    for (let index = 0; index < parts.length; index += 2) {
      const part = words.lookup(word, parts[index]!, parts[index + 1]!);
      const { termStarts, flatTermIds } = words;
      for (let at = termStarts[part]!; at < termStarts[part + 1]!; at += 1) numbers.push(flatTermIds[at]!);
    }
    return numbers;
  };
  return { words, terms, numberOfTerm };
}
