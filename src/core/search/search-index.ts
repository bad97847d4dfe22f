import { type CatalogEntry, compareCodeUnits } from "../catalog/index.js";
import { analyzeSentences, type QueryTerm } from "./analyze-query.js";
import { buildPostings, type DocumentTerms, type Postings } from "./build-postings.js";
import { createDiversifier, type Diversifier } from "./diversify.js";
import { ExactKeys } from "./exact-keys.js";
import { DIVERSITY_WINDOW } from "./ranking-parameters.js";
import { createQueryScorer, type QueryScorer } from "./score-query.js";
import { createServerEvidence, type ServerEvidence } from "./server-evidence.js";
import { selectTopK } from "./top-k.js";

/** A ranked index over catalog entries. */
export interface SearchIndex {
  readonly size: number;
  /** Ranked entries for `query`, at most `limit` (a positive integer already validated and capped by the caller). [] for a query with no usable word. */
  search(query: string, limit: number): CatalogEntry[];
}

/**
 * Makes an index over these entries (order as given; ties are broken by id). Postings are built lazily on the
 * first query that needs them.
 *
 * Order of results: the entry whose id is the trimmed query; entries whose name is the trimmed query; entries
 * whose name or id equals it case-insensitively; entries that matched a typed term; entries found only through
 * expansion. Within each tier by score (descending), then id (code units).
 */
export function createSearchIndex(entries: readonly CatalogEntry[]): SearchIndex {
  return new RankedIndex(entries);
}

/** Lookups for the exact tiers, built on the first search without touching any schema. */
type Lookups = {
  readonly keys: ExactKeys;
  /** Position of each document in id order (ties: input order). */
  readonly idRank: Uint32Array;
};

class RankedIndex implements SearchIndex {
  readonly size: number;
  private readonly documents: readonly CatalogEntry[];
  private lookups: Lookups | undefined;
  private scorer: QueryScorer | undefined;
  private postings: (Postings & DocumentTerms) | undefined;
  private diversifier: Diversifier | undefined;
  /** `null` once known to be useless (one server). */
  private serverEvidence: ServerEvidence | null | undefined;
  /** The index's term numbers of the scored query's typed terms, each once. */
  private typedTerms: number[] = [];
  /** The scorer while it holds the current query's scores; `undefined` when the query is not scored (yet). */
  private active: QueryScorer | undefined;
  private scoredQuery: string | undefined;
  private readonly placedStamp: Uint32Array;
  private generation = 0;
  private literalDocs: Uint32Array | undefined;
  private expansionDocs: Uint32Array | undefined;

  constructor(entries: readonly CatalogEntry[]) {
    this.documents = entries.slice();
    this.size = this.documents.length;
    this.placedStamp = new Uint32Array(this.size);
  }

  search(query: string, limit: number): CatalogEntry[] {
    if (typeof query !== "string" || !(limit >= 1) || this.size === 0) return [];
    const wanted = Math.min(Math.floor(limit), this.size);
    this.lookups ??= buildLookups(this.documents);
    const lookups = this.lookups;
    this.startSearch();
    const trimmed = query.trim();
    const placed: number[] = [];
    const exact = lookups.keys.find(trimmed);
    for (const tier of [exact.byId, exact.byName, exact.byFoldedKey]) {
      if (tier.length === 0 || placed.length >= wanted) continue;
      const fresh = tier.filter((doc) => this.placedStamp[doc] !== this.generation);
      if (fresh.length > 1) {
        this.score(query);
        fresh.sort((left, right) => (this.ranksBefore(left, right) ? -1 : 1));
      }
      this.place(fresh.slice(0, wanted - placed.length), placed);
    }
    if (placed.length < wanted && trimmed.length > 0) this.placeScored(query, wanted, placed);
    return placed.map((doc) => this.documents[doc]!);
  }

  private startSearch(): void {
    if (this.generation === 0xffffffff) {
      this.placedStamp.fill(0);
      this.generation = 0;
    }
    this.generation += 1;
    this.active = undefined;
    this.scoredQuery = undefined;
  }

  private place(docs: readonly number[], placed: number[]): void {
    for (const doc of docs) {
      this.placedStamp[doc] = this.generation;
      placed.push(doc);
    }
  }

  /** Scores the query once per search, building the postings on first use (not at all for no usable word). */
  private score(query: string): QueryScorer | undefined {
    if (this.scoredQuery === query) return this.active;
    this.scoredQuery = query;
    const sentences = analyzeSentences(query);
    if (sentences.length === 0) return undefined;
    this.postings ??= buildPostings(this.documents);
    this.scorer ??= createQueryScorer(this.postings, this.size);
    this.diversifier ??= createDiversifier(this.postings);
    this.scorer.score(sentences);
    if (this.serverEvidence === undefined) this.serverEvidence = createServerEvidence(this.documents) ?? null;
    this.serverEvidence?.apply(this.scorer, sentences, this.postings);
    this.typedTerms = typedTermIds(sentences, this.postings);
    this.active = this.scorer;
    return this.active;
  }

  /** Score descending, then id order (scores are 0 when the query is not scored). */
  private ranksBefore(left: number, right: number): boolean {
    const difference = (this.active?.scoreOf(left) ?? 0) - (this.active?.scoreOf(right) ?? 0);
    return difference !== 0 ? difference > 0 : this.lookups!.idRank[left]! < this.lookups!.idRank[right]!;
  }

  /** Fills the rest of the window with literal matches, then expansion-only matches, best first. */
  private placeScored(query: string, wanted: number, placed: number[]): void {
    const matched = this.score(query);
    if (!matched) return;
    this.literalDocs ??= new Uint32Array(this.size);
    this.expansionDocs ??= new Uint32Array(this.size);
    const { literalDocs, expansionDocs } = this;
    let literalCount = 0;
    let expansionCount = 0;
    const { touched, touchedCount } = matched;
    const { placedStamp, generation } = this;
    const anyPlaced = placed.length > 0;
    for (let index = 0; index < touchedCount; index += 1) {
      const doc = touched[index]!;
      if (anyPlaced && placedStamp[doc] === generation) continue;
      if (matched.isLiteral(doc)) literalDocs[literalCount++] = doc;
      else expansionDocs[expansionCount++] = doc;
    }
    const idRank = this.lookups!.idRank;
    const literalWanted = wanted - placed.length;
    const best = selectTopK(
      literalDocs,
      literalCount,
      Math.max(literalWanted, DIVERSITY_WINDOW),
      matched.scores,
      idRank,
    );
    const diversified = this.diversifier!.diversify({
      ranked: best,
      wanted: literalWanted,
      scores: matched.scores,
      typedTerms: this.typedTerms,
    });
    for (const doc of diversified) placed.push(doc);
    if (placed.length >= wanted) return;
    for (const doc of selectTopK(
      expansionDocs,
      expansionCount,
      wanted - placed.length,
      matched.scores,
      idRank,
    ))
      placed.push(doc);
  }
}

/** The distinct typed terms of the query's sentences that the index has, as its term numbers. */
function typedTermIds(sentences: readonly (readonly QueryTerm[])[], postings: Postings): number[] {
  const ids = new Set<number>();
  for (const terms of sentences) {
    for (const term of terms) {
      if (!term.literal) continue;
      const id = postings.termIds.get(term.term);
      if (id !== undefined) ids.add(id);
    }
  }
  return [...ids];
}

function buildLookups(documents: readonly CatalogEntry[]): Lookups {
  return { keys: new ExactKeys(documents), idRank: rankById(documents) };
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
