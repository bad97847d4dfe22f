import { cutText } from "../../shared/text/index.js";
import type { CatalogEntry } from "../catalog/index.js";
import { catalogHasScript, nearCatalogWords, queryWordCoverage } from "../search/index.js";
import {
  MAX_NEAR_WORDS,
  MAX_QUOTED_SELECTOR_CHARS,
  MAX_UNMATCHED_WORD_CHARS,
  MAX_UNMATCHED_WORDS,
} from "./limits.js";
import type { NoMatch, NoMatchHelp } from "./types.js";

/** Characters a suggested catalog word shares with the start of an unmatched word. */
const NEAR_WORD_PREFIX_CHARS = 4;

/** Scripts recognised in query words, with the name a reader knows them by. Latin is the catalog's own. */
const SCRIPTS: ReadonlyArray<[script: string, label: string]> = [
  ["Han", "Han (Chinese characters)"],
  ["Hiragana", "Hiragana (Japanese)"],
  ["Katakana", "Katakana (Japanese)"],
  ["Hangul", "Hangul (Korean)"],
  ["Cyrillic", "Cyrillic"],
  ["Greek", "Greek"],
  ["Arabic", "Arabic"],
  ["Hebrew", "Hebrew"],
  ["Thai", "Thai"],
  ["Devanagari", "Devanagari"],
  ["Bengali", "Bengali"],
  ["Tamil", "Tamil"],
  ["Georgian", "Georgian"],
  ["Armenian", "Armenian"],
];
const SCRIPT_PATTERNS = SCRIPTS.map(([script, label]) => ({
  script,
  label,
  pattern: new RegExp(`\\p{Script=${script}}`, "u"),
}));
const LATIN = /\p{Script=Latin}/u;

const SHORTER_WORDS =
  'Try shorter English capability words: a verb and an object, e.g. "send email", "list files", "create event".';

/**
 * Why a non-blank query found nothing, for the model and the host: the query words that match no tool at
 * all (stopwords left out), catalog words that start like them (`calendar` for `calender`), and the scripts
 * of query words the catalog has no text in; `hint` says it in one paragraph, with how to search instead.
 */
export function noMatchHelp(entries: readonly CatalogEntry[], query: string): NoMatchHelp {
  const help = noMatch(entries, query);
  return { ...help, hint: noMatchHint(query, help) };
}

/** The structured part of `noMatchHelp`, without the hint (batch groups share one hint). */
export function noMatch(entries: readonly CatalogEntry[], query: string): NoMatch {
  const unmatched = queryWordCoverage(entries, query).filter(
    (word) => word.terms.length > 0 && word.documents === 0,
  );
  const unmatchedWords = unique(unmatched.map((word) => cutText(word.word, MAX_UNMATCHED_WORD_CHARS))).slice(
    0,
    MAX_UNMATCHED_WORDS,
  );
  const missingScripts: string[] = [];
  const suggestions: string[] = [];
  for (const { word } of unmatched) {
    if (LATIN.test(word)) {
      for (const near of nearCatalogWords(entries, word, {
        prefix: NEAR_WORD_PREFIX_CHARS,
        max: MAX_NEAR_WORDS,
      }))
        if (!suggestions.includes(near) && suggestions.length < MAX_NEAR_WORDS) suggestions.push(near);
      continue;
    }
    const script = SCRIPT_PATTERNS.find((candidate) => candidate.pattern.test(word));
    if (script && !missingScripts.includes(script.label) && !catalogHasScript(entries, script.script))
      missingScripts.push(script.label);
  }
  return { unmatchedWords, suggestions, missingScripts };
}

/** The one-paragraph explanation of a no-match for the model. */
export function noMatchHint(query: string, help: NoMatch): string {
  const parts = [`No tool matched ${JSON.stringify(cutText(query.trim(), MAX_QUOTED_SELECTOR_CHARS))}.`];
  if (help.unmatchedWords.length > 0)
    parts.push(`These words match no tool: ${help.unmatchedWords.join(", ")}.`);
  else parts.push("The query has no word a tool uses (common words are ignored).");
  for (const script of help.missingScripts)
    parts.push(`The catalog has no text in ${script} script: write the query in English.`);
  if (help.suggestions.length > 0) parts.push(`Words the catalog uses: ${help.suggestions.join(", ")}.`);
  parts.push(SHORTER_WORDS);
  return parts.join(" ");
}

function unique(words: readonly string[]): string[] {
  return [...new Set(words)];
}

/** The one hint of a batch answer whose groups carry `noMatch`. */
export function batchNoMatchHint(groups: readonly NoMatch[]): string {
  const parts = ["Queries whose group has noMatch found no tool: their unmatchedWords match no tool at all."];
  const scripts = unique(groups.flatMap((group) => group.missingScripts));
  for (const script of scripts)
    parts.push(`The catalog has no text in ${script} script: write queries in English.`);
  parts.push(SHORTER_WORDS);
  return parts.join(" ");
}
