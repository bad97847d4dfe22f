import type { CatalogEntry } from "../src/core/catalog/index.js";
import { entryFields, tokenize } from "../src/core/search/index.js";

/** Okapi BM25 parameters of the baseline (the textbook defaults). */
export const PLAIN_BM25_K1 = 1.2;
/** Length normalisation of the baseline. */
export const PLAIN_BM25_B = 0.75;

/** The baseline's interface: ranked entries for a query. */
export interface PlainBm25 {
  search(query: string, limit: number): CatalogEntry[];
}

/**
 * Plain Okapi BM25 over the spec's tokens: every indexed text of an entry in one bag, no field weights, no
 * intent expansion, no exact-name tiers. A baseline for the quality benchmark, not for production.
 */
export function createPlainBm25(entries: readonly CatalogEntry[]): PlainBm25 {
  const postings = new Map<string, Array<{ doc: number; frequency: number }>>();
  const lengths = entries.map((entry, doc) => {
    const tokens = tokenize(entryFields(entry).join("\n"));
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [term, frequency] of counts) {
      const list = postings.get(term) ?? [];
      list.push({ doc, frequency });
      postings.set(term, list);
    }
    return tokens.length;
  });
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, entries.length);
  return {
    search(query: string, limit: number): CatalogEntry[] {
      const scores = new Map<number, number>();
      for (const term of new Set(tokenize(query))) {
        const list = postings.get(term);
        if (!list) continue;
        const idf = Math.log(1 + (entries.length - list.length + 0.5) / (list.length + 0.5));
        for (const { doc, frequency } of list) {
          const norm = 1 - PLAIN_BM25_B + (PLAIN_BM25_B * lengths[doc]!) / averageLength;
          const weight = (frequency * (PLAIN_BM25_K1 + 1)) / (frequency + PLAIN_BM25_K1 * norm);
          scores.set(doc, (scores.get(doc) ?? 0) + idf * weight);
        }
      }
      return [...scores]
        .sort((left, right) => right[1] - left[1] || left[0] - right[0])
        .slice(0, limit)
        .map(([doc]) => entries[doc]!);
    },
  };
}
