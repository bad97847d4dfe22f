import type { QueryTerm } from "./analyze-query.js";
import type { Postings } from "./build-postings.js";
import { SENTENCE_FLOOR, SENTENCE_POWER } from "./ranking-parameters.js";

/**
 * Scores queries against one set of postings, reusing its buffers from query to query (search is
 * synchronous, so one scorer per index is enough). After `score`, the first `touchedCount` items of `touched`
 * are the matched documents, in no particular order.
 */
export interface QueryScorer {
  /** Scores a query given as its sentences' terms (see `analyzeSentences`). */
  score(sentences: readonly (readonly QueryTerm[])[]): void;
  readonly touched: Uint32Array;
  readonly touchedCount: number;
  /** The last query's scores; meaningful for the touched documents only. */
  readonly scores: Float64Array;
  /** The last query's score of `doc` (0 when it matched nothing). */
  scoreOf(doc: number): number;
  /** True when `doc` matched at least one typed term of the last query (not only expansions). */
  isLiteral(doc: number): boolean;
}

/**
 * Makes a scorer. A sentence's score for a document is BM25F: `Σ weight(term) · idf(term) · w(term, doc)`
 * with `w` precomputed in the postings. A query's score is
 * `Σ over sentences (sentenceScore / max(bestOfSentence, SENTENCE_FLOOR · bestOfAnySentence)) ^ SENTENCE_POWER`,
 * which orders a one-sentence query exactly as BM25F does.
 */
export function createQueryScorer(postings: Postings, documentCount: number): QueryScorer {
  return new SentenceScorer(postings, documentCount);
}

class SentenceScorer implements QueryScorer {
  readonly touched: Uint32Array;
  readonly scores: Float64Array;
  touchedCount = 0;
  private readonly postings: Postings;
  /** Per-sentence accumulator; every entry is back to 0 between sentences (all contributions are > 0). */
  private readonly sentenceScores: Float64Array;
  private readonly sentenceDocs: Uint32Array;
  private readonly queryStamp: Uint32Array;
  private readonly literalStamp: Uint32Array;
  private pairDocs: Uint32Array;
  private pairScores: Float64Array;
  private generation = 0;

  constructor(postings: Postings, documentCount: number) {
    this.postings = postings;
    this.touched = new Uint32Array(documentCount);
    this.scores = new Float64Array(documentCount);
    this.sentenceScores = new Float64Array(documentCount);
    this.sentenceDocs = new Uint32Array(documentCount);
    this.queryStamp = new Uint32Array(documentCount);
    this.literalStamp = new Uint32Array(documentCount);
    this.pairDocs = new Uint32Array(Math.max(1024, documentCount));
    this.pairScores = new Float64Array(this.pairDocs.length);
  }

  scoreOf(doc: number): number {
    return this.queryStamp[doc] === this.generation ? this.scores[doc]! : 0;
  }

  isLiteral(doc: number): boolean {
    return this.literalStamp[doc] === this.generation;
  }

  score(sentences: readonly (readonly QueryTerm[])[]): void {
    if (this.generation === 0xffffffff) {
      this.queryStamp.fill(0);
      this.literalStamp.fill(0);
      this.generation = 0;
    }
    this.generation += 1;
    this.touchedCount = 0;
    let pairCount = 0;
    const sentenceStarts: number[] = [];
    const sentenceBest: number[] = [];
    for (const terms of sentences) {
      sentenceStarts.push(pairCount);
      const literalCount = this.accumulate(terms, true, 0);
      const matchedCount = this.accumulate(terms, false, literalCount);
      sentenceBest.push(this.flushSentence(matchedCount, literalCount, pairCount));
      pairCount += matchedCount;
    }
    let bestOfAll = 0;
    for (const best of sentenceBest) bestOfAll = Math.max(bestOfAll, best);
    const { pairDocs, pairScores, scores } = this;
    for (let sentence = 0; sentence < sentenceStarts.length; sentence += 1) {
      const scale = 1 / Math.max(sentenceBest[sentence]!, SENTENCE_FLOOR * bestOfAll, Number.MIN_VALUE);
      const end = sentence + 1 < sentenceStarts.length ? sentenceStarts[sentence + 1]! : pairCount;
      for (let pair = sentenceStarts[sentence]!; pair < end; pair += 1) {
        const normalised = pairScores[pair]! * scale;
        let powered = normalised;
        for (let factor = 1; factor < SENTENCE_POWER; factor += 1) powered *= normalised;
        scores[pairDocs[pair]!]! += powered;
      }
    }
  }

  /** Adds the typed (or the expansion) terms of a sentence; returns how many documents the sentence has matched so far. */
  private accumulate(terms: readonly QueryTerm[], literal: boolean, matchedSoFar: number): number {
    const { termIds, offsets, docs, weights, idf } = this.postings;
    const { sentenceScores, sentenceDocs } = this;
    let matched = matchedSoFar;
    for (const term of terms) {
      if (term.literal !== literal) continue;
      const termId = termIds.get(term.term);
      if (termId === undefined) continue;
      const factor = term.weight * idf[termId]!;
      const end = offsets[termId + 1]!;
      for (let posting = offsets[termId]!; posting < end; posting += 1) {
        const doc = docs[posting]!;
        const before = sentenceScores[doc]!;
        if (before === 0) sentenceDocs[matched++] = doc;
        sentenceScores[doc] = before + factor * weights[posting]!;
      }
    }
    return matched;
  }

  /** Moves a sentence's scores into the pair list (resetting the accumulator); returns its best score. */
  private flushSentence(matchedCount: number, literalCount: number, pairStart: number): number {
    if (pairStart + matchedCount > this.pairDocs.length) this.growPairs(pairStart + matchedCount);
    const { sentenceScores, sentenceDocs, pairDocs, pairScores, queryStamp, literalStamp, touched, scores } =
      this;
    const generation = this.generation;
    let best = 0;
    for (let index = 0; index < matchedCount; index += 1) {
      const doc = sentenceDocs[index]!;
      const score = sentenceScores[doc]!;
      sentenceScores[doc] = 0;
      if (score > best) best = score;
      pairDocs[pairStart + index] = doc;
      pairScores[pairStart + index] = score;
      if (queryStamp[doc] !== generation) {
        queryStamp[doc] = generation;
        scores[doc] = 0;
        touched[this.touchedCount++] = doc;
      }
      if (index < literalCount) literalStamp[doc] = generation;
    }
    return best;
  }

  private growPairs(needed: number): void {
    const grownDocs = new Uint32Array(Math.max(needed, this.pairDocs.length * 2));
    grownDocs.set(this.pairDocs);
    const grownScores = new Float64Array(grownDocs.length);
    grownScores.set(this.pairScores);
    this.pairDocs = grownDocs;
    this.pairScores = grownScores;
  }
}
