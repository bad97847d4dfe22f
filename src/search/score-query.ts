import type { QueryTerm } from "./analyze-query.js";
import type { Postings } from "./build-postings.js";
import { SENTENCE_FLOOR, SENTENCE_POWER } from "./limits.js";

/**
 * Scores queries against one set of postings, reusing its buffers from query to query (synchronous, so one
 * scorer per index is enough). After `score`, the first `touchedCount` items of `touched` are the matched
 * documents, in no particular order.
 */
export interface QueryScorer {
  /** Scores a query given as its sentences' terms (see `analyzeSentences`). */
  score(sentences: readonly (readonly QueryTerm[])[]): void;
  readonly touched: Uint32Array;
  readonly touchedCount: number;
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
  const { termIds, offsets, docs, weights, idf } = postings;
  const totals = new Float64Array(documentCount);
  const queryStamp = new Uint32Array(documentCount);
  const literalStamp = new Uint32Array(documentCount);
  const sentenceStamp = new Uint32Array(documentCount);
  const pairOfDoc = new Uint32Array(documentCount);
  const touched = new Uint32Array(documentCount);
  let pairDocs = new Uint32Array(Math.max(1024, documentCount));
  let pairScores = new Float64Array(pairDocs.length);
  let touchedCount = 0;
  let queryGeneration = 0;
  let sentenceGeneration = 0;

  const nextQueryGeneration = (): number => {
    if (queryGeneration === 0xffffffff) {
      queryStamp.fill(0);
      literalStamp.fill(0);
      queryGeneration = 0;
    }
    queryGeneration += 1;
    return queryGeneration;
  };
  const nextSentenceGeneration = (): number => {
    if (sentenceGeneration === 0xffffffff) {
      sentenceStamp.fill(0);
      sentenceGeneration = 0;
    }
    sentenceGeneration += 1;
    return sentenceGeneration;
  };
  const ensurePairCapacity = (needed: number): void => {
    if (needed <= pairDocs.length) return;
    const grownDocs = new Uint32Array(Math.max(needed, pairDocs.length * 2));
    grownDocs.set(pairDocs);
    const grownScores = new Float64Array(grownDocs.length);
    grownScores.set(pairScores);
    pairDocs = grownDocs;
    pairScores = grownScores;
  };

  return {
    touched,
    get touchedCount() {
      return touchedCount;
    },
    scoreOf: (doc) => (queryStamp[doc] === queryGeneration ? totals[doc]! : 0),
    isLiteral: (doc) => literalStamp[doc] === queryGeneration,
    score(sentences) {
      const query = nextQueryGeneration();
      touchedCount = 0;
      let pairCount = 0;
      const sentenceStarts: number[] = [];
      const sentenceBest: number[] = [];
      for (const terms of sentences) {
        const sentence = nextSentenceGeneration();
        sentenceStarts.push(pairCount);
        for (const { term, weight, literal } of terms) {
          const termId = termIds.get(term);
          if (termId === undefined) continue;
          const factor = weight * idf[termId]!;
          const end = offsets[termId + 1]!;
          ensurePairCapacity(pairCount + (end - offsets[termId]!));
          for (let posting = offsets[termId]!; posting < end; posting += 1) {
            const doc = docs[posting]!;
            if (sentenceStamp[doc] !== sentence) {
              sentenceStamp[doc] = sentence;
              pairOfDoc[doc] = pairCount;
              pairDocs[pairCount] = doc;
              pairScores[pairCount] = 0;
              pairCount += 1;
              if (queryStamp[doc] !== query) {
                queryStamp[doc] = query;
                totals[doc] = 0;
                touched[touchedCount] = doc;
                touchedCount += 1;
              }
            }
            pairScores[pairOfDoc[doc]!]! += factor * weights[posting]!;
            if (literal) literalStamp[doc] = query;
          }
        }
        let best = 0;
        for (let pair = sentenceStarts[sentenceStarts.length - 1]!; pair < pairCount; pair += 1) {
          if (pairScores[pair]! > best) best = pairScores[pair]!;
        }
        sentenceBest.push(best);
      }
      const bestOfAll = Math.max(0, ...sentenceBest);
      for (let sentence = 0; sentence < sentenceStarts.length; sentence += 1) {
        const scale = 1 / Math.max(sentenceBest[sentence]!, SENTENCE_FLOOR * bestOfAll, Number.MIN_VALUE);
        const end = sentence + 1 < sentenceStarts.length ? sentenceStarts[sentence + 1]! : pairCount;
        for (let pair = sentenceStarts[sentence]!; pair < end; pair += 1) {
          totals[pairDocs[pair]!]! += (pairScores[pair]! * scale) ** SENTENCE_POWER;
        }
      }
    },
  };
}
