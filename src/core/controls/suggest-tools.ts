import { type CatalogEntry, type CatalogSnapshot, compareCodeUnits } from "../catalog/index.js";
import { MAX_SUGGESTION_INPUT_CHARS, MAX_SUGGESTIONS } from "./limits.js";

const CONTAINMENT_SCORE = 4;
const NAME_WORD_SCORE = 2;
const DESCRIPTION_WORD_SCORE = 1;
const MAX_DESCRIPTION_WORD_MATCHES = 3;
const MIN_CONTAINMENT_CHARS = 3;

/** Words too common in ids and descriptions to say anything about which tool was meant. */
const IGNORED_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "by",
  "client",
  "core",
  "for",
  "from",
  "in",
  "is",
  "it",
  "mcp",
  "native",
  "of",
  "on",
  "or",
  "the",
  "to",
  "tool",
  "tools",
  "with",
]);

const descriptionWordCache = new WeakMap<CatalogEntry, ReadonlySet<string>>();

/**
 * Up to three catalog tools a missed selector probably meant, best first: scored by containment between the
 * selector (or an id's last segment) and a name, then by shared name words, then by shared description
 * words; only suggestions scoring at least half the best are kept. Shown as names, or as ids where the name
 * is not unique in the catalog. Reads no schema.
 */
export function suggestTools(snapshot: CatalogSnapshot, selector: string): string[] {
  const raw = selector.slice(0, MAX_SUGGESTION_INPUT_CHARS).trim();
  const input = raw.toLowerCase();
  const lastSegment = input.slice(input.lastIndexOf(":") + 1);
  const selectorWords = wordsOf(raw);
  if (lastSegment.length === 0 && selectorWords.size === 0) return [];

  const scored: Array<{ entry: CatalogEntry; score: number }> = [];
  for (const entry of snapshot.entries) {
    const name = entry.name.toLowerCase();
    let score = 0;
    if (contains(lastSegment, name) || contains(name, lastSegment)) score += CONTAINMENT_SCORE;
    score += NAME_WORD_SCORE * countShared(selectorWords, wordsOf(entry.name));
    score +=
      DESCRIPTION_WORD_SCORE *
      Math.min(MAX_DESCRIPTION_WORD_MATCHES, countShared(selectorWords, descriptionWords(entry)));
    if (score > 0) scored.push({ entry, score });
  }
  const best = scored.reduce((max, item) => Math.max(max, item.score), 0);
  const shown: string[] = [];
  for (const { entry } of scored
    .filter((item) => item.score * 2 >= best)
    .sort(
      (left, right) =>
        right.score - left.score ||
        compareCodeUnits(left.entry.name, right.entry.name) ||
        compareCodeUnits(left.entry.id, right.entry.id),
    )) {
    const label = snapshot.withName(entry.name).length === 1 ? entry.name : entry.id;
    if (!shown.includes(label)) shown.push(label);
    if (shown.length === MAX_SUGGESTIONS) break;
  }
  return shown;
}

function contains(haystack: string, needle: string): boolean {
  return needle.length >= MIN_CONTAINMENT_CHARS && haystack.length > 0 && haystack.includes(needle);
}

function countShared(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared;
}

function descriptionWords(entry: CatalogEntry): ReadonlySet<string> {
  let words = descriptionWordCache.get(entry);
  if (!words) {
    words = wordsOf(entry.description);
    descriptionWordCache.set(entry, words);
  }
  return words;
}

/** Lowercase words of a text, split on anything that is not a letter or digit and at camelCase humps. */
function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  const spaced = text.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2");
  for (const word of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length >= 2 && !IGNORED_WORDS.has(word)) words.add(word);
  }
  return words;
}
