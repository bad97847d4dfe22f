import { type CatalogEntry, compareCodeUnits } from "../catalog/index.js";
import { analyzeSentences, type QueryTerm } from "./analyze-query.js";
import { buildPostings } from "./build-postings.js";
import { createQueryScorer, type QueryScorer } from "./score-query.js";
import { selectTopK } from "./top-k.js";

/** A ranked index over catalog entries. */
export interface SearchIndex {
  readonly size: number;
  /** Ranked entries for `query`, at most `limit` (a positive integer already validated and capped by the caller). [] for a query with no usable word. */
  search(query: string, limit: number): CatalogEntry[];
}

type Lookups = {
  readonly byId: ReadonlyMap<string, readonly number[]>;
  readonly byName: ReadonlyMap<string, readonly number[]>;
  /** Lowercased names and ids. */
  readonly byFoldedKey: ReadonlyMap<string, readonly number[]>;
  /** Position of each document in id order (ties: input order). */
  readonly idRank: Uint32Array;
};

/**
 * Makes an index over these entries (order as given; ties are broken by id). Postings are built lazily on the
 * first query that needs them.
 *
 * Order of results: the entry whose id is the trimmed query; entries whose name is the trimmed query; entries
 * whose name or id equals it case-insensitively; entries that matched a typed term; entries found only through
 * expansion. Within each tier by score (descending), then id (code units).
 */
export function createSearchIndex(entries: readonly CatalogEntry[]): SearchIndex {
  const documents = entries.slice();
  const count = documents.length;
  let lookups: Lookups | undefined;
  let scorer: QueryScorer | undefined;
  const placedStamp = new Uint32Array(count);
  let literalDocs: Uint32Array | undefined;
  let expansionDocs: Uint32Array | undefined;
  let searchGeneration = 0;

  return {
    size: count,
    search(query: string, limit: number): CatalogEntry[] {
      if (typeof query !== "string" || !(limit >= 1) || count === 0) return [];
      const wanted = Math.min(Math.floor(limit), count);
      lookups ??= buildLookups(documents);
      const { idRank } = lookups;
      if (searchGeneration === 0xffffffff) {
        placedStamp.fill(0);
        searchGeneration = 0;
      }
      const generation = ++searchGeneration;
      const trimmed = query.trim();
      const folded = trimmed.toLowerCase();
      let sentences: QueryTerm[][] | undefined;
      let active: QueryScorer | undefined;
      /** Scores the query once, building the postings on first use; `undefined` when it has no usable word. */
      const scored = (): QueryScorer | undefined => {
        if (sentences === undefined) {
          sentences = analyzeSentences(query);
          if (sentences.length > 0) {
            scorer ??= createQueryScorer(buildPostings(documents), count);
            scorer.score(sentences);
            active = scorer;
          }
        }
        return active;
      };
      const ranksBefore = (left: number, right: number): boolean => {
        const difference = (active?.scoreOf(left) ?? 0) - (active?.scoreOf(right) ?? 0);
        return difference !== 0 ? difference > 0 : idRank[left]! < idRank[right]!;
      };

      const placed: number[] = [];
      const exactTiers = [
        lookups.byId.get(trimmed),
        lookups.byName.get(trimmed),
        lookups.byFoldedKey.get(folded),
      ];
      for (const tier of exactTiers) {
        if (placed.length >= wanted || tier === undefined) continue;
        const fresh = tier.filter((doc) => placedStamp[doc] !== generation);
        if (fresh.length > 1) {
          scored();
          fresh.sort((left, right) => (ranksBefore(left, right) ? -1 : 1));
        }
        for (const doc of fresh.slice(0, wanted - placed.length)) {
          placedStamp[doc] = generation;
          placed.push(doc);
        }
      }
      if (placed.length < wanted && trimmed.length > 0) {
        const matched = scored();
        if (matched) {
          literalDocs ??= new Uint32Array(count);
          expansionDocs ??= new Uint32Array(count);
          let literalCount = 0;
          let expansionCount = 0;
          const { touched, touchedCount } = matched;
          for (let index = 0; index < touchedCount; index += 1) {
            const doc = touched[index]!;
            if (placedStamp[doc] === generation) continue;
            if (matched.isLiteral(doc)) literalDocs[literalCount++] = doc;
            else expansionDocs[expansionCount++] = doc;
          }
          for (const [tier, tierCount] of [
            [literalDocs, literalCount],
            [expansionDocs, expansionCount],
          ] as const) {
            if (placed.length >= wanted) break;
            placed.push(...selectTopK(tier, tierCount, wanted - placed.length, matched.scores, idRank));
          }
        }
      }
      return placed.map((doc) => documents[doc]!);
    },
  };
}

function buildLookups(documents: readonly CatalogEntry[]): Lookups {
  const byId = new Map<string, number[]>();
  const byName = new Map<string, number[]>();
  const byFoldedKey = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, doc: number): void => {
    const list = map.get(key);
    if (!list) map.set(key, [doc]);
    else if (list[list.length - 1] !== doc) list.push(doc);
  };
  documents.forEach((entry, doc) => {
    add(byId, entry.id, doc);
    add(byName, entry.name, doc);
    add(byFoldedKey, entry.name.toLowerCase(), doc);
    add(byFoldedKey, entry.id.toLowerCase(), doc);
  });
  return { byId, byName, byFoldedKey, idRank: rankById(documents) };
}

/** Each document's position in id order; already id-ordered input (a snapshot) is detected in one pass. */
function rankById(documents: readonly CatalogEntry[]): Uint32Array {
  const order = documents.map((_, doc) => doc);
  let sorted = true;
  for (let doc = 1; doc < documents.length && sorted; doc += 1) {
    sorted = compareCodeUnits(documents[doc - 1]!.id, documents[doc]!.id) <= 0;
  }
  if (!sorted)
    order.sort((left, right) => compareCodeUnits(documents[left]!.id, documents[right]!.id) || left - right);
  const rank = new Uint32Array(documents.length);
  order.forEach((doc, position) => {
    rank[doc] = position;
  });
  return rank;
}
