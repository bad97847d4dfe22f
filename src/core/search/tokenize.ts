import { LRUCache } from "lru-cache";
import { ABBREVIATIONS } from "./abbreviations.js";
import { MAX_CACHED_WORDS, MAX_TOKEN_CHARS } from "./limits.js";
import { SPACELESS_RUN, segmentSpaceless } from "./segment-spaceless.js";
import { stem } from "./stem.js";
import { STOPWORDS } from "./stopwords.js";

/** Anything that is not a letter, a combining mark, a digit or `_` separates words. */
const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
const ASCII_WORD = /[A-Za-z0-9_]+/g;
const NON_ASCII = /[^\u0000-\u007f]/;
const SIMPLE_WORD = /^[A-Z]?[a-z]+$/;
const HAS_SPACELESS = new RegExp(SPACELESS_RUN.source, "u");
/**
 * camelCase parts: a plural acronym (`URLs`), an acronym (`URL` in `URLParser`), a capitalised or lowercase
 * run, a number, or any other letters (caseless scripts).
 */
const CAMEL_PART_ASCII = /[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;
/** The same parts for any script (compiled on first non-ASCII word: Unicode classes are costly to compile). */
const CAMEL_PART =
  /\p{Lu}{2,}s(?![\p{Ll}\p{M}])|\p{Lu}+(?![\p{Ll}\p{M}])|\p{Lu}?[\p{Ll}\p{Lt}\p{Lm}\p{Lo}][\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{M}]*|\p{N}+|[\p{L}\p{M}]+/gu;

/** Lengths of the longest stopword and abbreviation: longer forms skip those lookups. */
const LONGEST_STOPWORD = Math.max(...Array.from(STOPWORDS, (word) => word.length));
const LONGEST_ABBREVIATION = Math.max(...Array.from(ABBREVIATIONS.keys(), (word) => word.length));

/**
 * Terms of recently seen query words: a bounded memo of a pure function of one short string, so it stays
 * module-level (nothing in it depends on a catalog, a config or a run). Made on first use: an LRU of this size
 * allocates its tables up front, which would cost every `import("toolsift")` a few milliseconds.
 */
let termCache: LRUCache<string, readonly string[]> | undefined;

/** The spec's tokens for a text: whole words lowercased + camelCase/snake_case/digit parts, stopwords dropped, light-stemmed. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const word of splitWords(text)) for (const term of cachedWordTerms(word)) tokens.push(term);
  return tokens;
}

/** The words of a text in order (NFKC-normalised), split on anything that is not a letter, digit or `_`. */
export function splitWords(text: string): string[] {
  if (!NON_ASCII.test(text)) return text.match(ASCII_WORD) ?? [];
  return text.normalize("NFKC").match(WORD) ?? [];
}

/**
 * The unstemmed forms of one word: the word lowercased, then, when it has two or more parts (or its one part
 * differs from it), each camelCase / snake_case / digit part lowercased: `getURLs` gives `geturls`, `get`,
 * `urls`. Runs of spaceless scripts are segmented (see `segmentSpaceless`).
 */
export function wordForms(word: string): string[] {
  if (SIMPLE_WORD.test(word)) return [word.toLowerCase()];
  const ascii = !NON_ASCII.test(word);
  if (!ascii && HAS_SPACELESS.test(word)) return spacelessWordForms(word);
  const whole = word.toLowerCase();
  const parts: string[] = [];
  for (const piece of word.split("_")) {
    if (piece.length === 0) continue;
    for (const part of piece.match(ascii ? CAMEL_PART_ASCII : CAMEL_PART) ?? [])
      parts.push(part.toLowerCase());
  }
  if (parts.length === 0) return [];
  if (parts.length === 1 && parts[0] === whole) return [whole];
  return [whole, ...parts];
}

/** The search terms of one word: its forms without stopwords and blobs, with abbreviations spelled out, stemmed. */
export function wordTerms(word: string): string[] {
  const terms: string[] = [];
  for (const form of wordForms(word)) {
    const term = formTerm(form);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}

/** The term of one lowercase form: `undefined` for a stopword or a blob, else the abbreviation spelled out, stemmed. */
export function formTerm(form: string): string | undefined {
  const length = form.length;
  if (length > MAX_TOKEN_CHARS || (length <= LONGEST_STOPWORD && STOPWORDS.has(form))) return undefined;
  return stem((length <= LONGEST_ABBREVIATION && ABBREVIATIONS.get(form)) || form);
}

/**
 * `wordTerms`, memoised process-wide (query words repeat from query to query). Index builds do not use it:
 * they have the shared build vocabulary. Words longer than `MAX_TOKEN_CHARS` are computed each time, so a
 * blob never sits in the memo.
 */
export function cachedWordTerms(word: string): readonly string[] {
  termCache ??= new LRUCache<string, readonly string[]>({ max: MAX_CACHED_WORDS });
  let terms = termCache.get(word);
  if (terms !== undefined) return terms;
  terms = wordTerms(word);
  if (word.length <= MAX_TOKEN_CHARS) termCache.set(word, terms);
  return terms;
}

function spacelessWordForms(word: string): string[] {
  const forms: string[] = [];
  let last = 0;
  for (const match of word.matchAll(SPACELESS_RUN)) {
    const start = match.index ?? 0;
    if (start > last) forms.push(...wordForms(word.slice(last, start)));
    forms.push(...segmentSpaceless(match[0].toLowerCase()));
    last = start + match[0].length;
  }
  if (last < word.length) forms.push(...wordForms(word.slice(last)));
  return forms;
}
