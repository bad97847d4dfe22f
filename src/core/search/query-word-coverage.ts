import type { CatalogEntry } from "../catalog/index.js";
import { entryFields } from "./build-postings.js";
import { formTerm, splitWords, wordForms, wordTerms } from "./tokenize.js";

/** How one query word fares against a catalog. */
export type QueryWordCoverage = {
  /** The word as typed. */
  word: string;
  /** Its search terms (empty for a stopword or a blob, which never match). */
  terms: string[];
  /** The most entries any one of its terms appears in: 0 exactly when no entry holds any of them. */
  documents: number;
};

/** The catalog's terms: how many entries hold each, and a readable form (the first lowercase word seen). */
type CatalogTerms = Map<string, { documents: number; form: string }>;

/** A one-part word (no `_`, digits or case humps after lowercasing): the short words worth suggesting. */
const SINGLE_PART = /^\p{L}+$/u;

const termsByCatalog = new WeakMap<readonly CatalogEntry[], CatalogTerms>();
const scriptsByCatalog = new WeakMap<readonly CatalogEntry[], Map<string, boolean>>();

/**
 * Read-only: for each word of `query`, its terms and how many of `entries` hold one of them, in the index's
 * own tokenisation (name, label, description, source and owner; parameter text for native entries). The
 * catalog's term table is built once per entry array (a snapshot's `entries`) and kept while it lives. It
 * does not rank; it explains an empty result.
 */
export function queryWordCoverage(entries: readonly CatalogEntry[], query: string): QueryWordCoverage[] {
  const catalog = catalogTerms(entries);
  return splitWords(query).map((word) => {
    const terms = [...new Set(wordTerms(word))];
    let documents = 0;
    for (const term of terms) documents = Math.max(documents, catalog.get(term)?.documents ?? 0);
    return { word, terms, documents };
  });
}

/**
 * Read-only: up to `max` one-part catalog words (letters only) that share their first `prefix` characters
 * with one of `word`'s forms (e.g. `calendar` for `calender`), most common first, then alphabetical: short
 * words the catalog really uses.
 */
export function nearCatalogWords(
  entries: readonly CatalogEntry[],
  word: string,
  options: { prefix: number; max: number },
): string[] {
  const catalog = catalogTerms(entries);
  const stems = new Set(
    [...wordForms(word), ...wordTerms(word)]
      .filter((form) => form.length >= options.prefix)
      .map((form) => form.slice(0, options.prefix)),
  );
  if (stems.size === 0) return [];
  const found: Array<{ form: string; documents: number }> = [];
  for (const [term, info] of catalog) {
    if (term.length < options.prefix || !stems.has(term.slice(0, options.prefix))) continue;
    if (!SINGLE_PART.test(info.form)) continue;
    found.push({ form: info.form, documents: info.documents });
  }
  found.sort((left, right) => right.documents - left.documents || (left.form < right.form ? -1 : 1));
  return [...new Set(found.map((item) => item.form))].slice(0, options.max);
}

/** Read-only: true when any entry's indexed text holds a letter of `script` (a Unicode script name). */
export function catalogHasScript(entries: readonly CatalogEntry[], script: string): boolean {
  let known = scriptsByCatalog.get(entries);
  if (!known) {
    known = new Map();
    scriptsByCatalog.set(entries, known);
  }
  const cached = known.get(script);
  if (cached !== undefined) return cached;
  const pattern = new RegExp(`\\p{Script=${script}}`, "u");
  const found = entries.some((entry) => entryFields(entry).some((text) => pattern.test(text)));
  known.set(script, found);
  return found;
}

function catalogTerms(entries: readonly CatalogEntry[]): CatalogTerms {
  const cached = termsByCatalog.get(entries);
  if (cached) return cached;
  const table: CatalogTerms = new Map();
  for (const entry of entries) {
    const seen = new Set<string>();
    for (const text of entryFields(entry)) {
      for (const word of splitWords(text)) {
        for (const form of wordForms(word)) {
          const term = formTerm(form);
          if (term === undefined || seen.has(term)) continue;
          seen.add(term);
          const info = table.get(term);
          if (info) info.documents += 1;
          else table.set(term, { documents: 1, form });
        }
      }
    }
  }
  termsByCatalog.set(entries, table);
  return table;
}
