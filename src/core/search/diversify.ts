import type { DocumentTerms, Postings } from "./build-postings.js";
import { MAX_QUERY_TERMS } from "./limits.js";
import { DIVERSITY_PENALTY, DIVERSITY_WINDOW } from "./ranking-parameters.js";

/** What `diversify` reorders: the best candidates of a tier and what the query typed. */
export type DiversifyOptions = {
  /** Candidates best first by score, at least `min(wanted, DIVERSITY_WINDOW)` of them when there are that many. */
  readonly ranked: readonly number[];
  /** How many to return. */
  readonly wanted: number;
  readonly scores: Float64Array;
  /** The index's term numbers of the query's typed terms, each once (at most `MAX_QUERY_TERMS` are used). */
  readonly typedTerms: readonly number[];
};

/** The diversity step of one index; keeps its buffers from query to query (search is synchronous). */
export interface Diversifier {
  /**
   * Reorders the first `DIVERSITY_WINDOW` candidates greedily so that a long request surfaces one candidate per
   * intent rather than variants of one: each next pick maximises `score × (1 − DIVERSITY_PENALTY × r)`, where
   * `r` is the idf-weighted share of the candidate's matched typed terms already matched by the picks above it.
   * The best candidate stays first; candidates past the window follow by score. The result for a smaller
   * `wanted` is a prefix of the result for a larger one.
   */
  diversify(options: DiversifyOptions): number[];
}

/** Makes the diversity step for these postings. */
export function createDiversifier(postings: Postings & DocumentTerms): Diversifier {
  return new GreedyDiversifier(postings);
}

class GreedyDiversifier implements Diversifier {
  private readonly postings: Postings & DocumentTerms;
  /** Per index term: 1 + its position in the current query's typed terms, or 0. */
  private readonly typedPosition: Uint8Array;
  /** Per window slot, the typed terms it has, as positions in `typedTerms` (row `slot`, `MAX_QUERY_TERMS` wide). */
  private readonly matchedTerms = new Uint8Array(DIVERSITY_WINDOW * MAX_QUERY_TERMS);
  private readonly matchedCounts = new Uint8Array(DIVERSITY_WINDOW);
  private readonly matchedMass = new Float64Array(DIVERSITY_WINDOW);
  private readonly termMass = new Float64Array(MAX_QUERY_TERMS);
  private readonly covered = new Uint8Array(MAX_QUERY_TERMS);
  private readonly taken = new Uint8Array(DIVERSITY_WINDOW);

  constructor(postings: Postings & DocumentTerms) {
    this.postings = postings;
    this.typedPosition = new Uint8Array(postings.idf.length);
  }

  diversify(options: DiversifyOptions): number[] {
    const { ranked, wanted, scores, typedTerms } = options;
    const { matchedTerms, matchedCounts, matchedMass, termMass, covered, taken } = this;
    const windowSize = Math.min(ranked.length, DIVERSITY_WINDOW);
    const termCount = Math.min(typedTerms.length, MAX_QUERY_TERMS);
    if (wanted <= 1 || windowSize <= 2 || termCount < 2) return ranked.slice(0, wanted);
    this.findMatchedTerms(ranked, windowSize, typedTerms, termCount);
    covered.fill(0, 0, termCount);
    taken.fill(0, 0, windowSize);
    const picks = Math.min(wanted, windowSize);
    const result: number[] = [];
    for (let pick = 0; pick < picks; pick += 1) {
      let best = -1;
      let bestValue = Number.NEGATIVE_INFINITY;
      for (let slot = 0; slot < windowSize; slot += 1) {
        if (taken[slot]) continue;
        const first = slot * MAX_QUERY_TERMS;
        const last = first + matchedCounts[slot]!;
        let redundant = 0;
        for (let at = first; at < last; at += 1) {
          const term = matchedTerms[at]!;
          if (covered[term]) redundant += termMass[term]!;
        }
        const mass = matchedMass[slot]!;
        const share = mass > 0 ? redundant / mass : 1;
        const value = scores[ranked[slot]!]! * (1 - DIVERSITY_PENALTY * share);
        // Slots are scanned best first, so on equal values the better-scored one is kept; the first untaken slot
        // is kept whatever its value, so a pick is always made.
        if (best < 0 || value > bestValue) {
          best = slot;
          bestValue = value;
        }
      }
      taken[best] = 1;
      result.push(ranked[best]!);
      const first = best * MAX_QUERY_TERMS;
      for (let at = first; at < first + matchedCounts[best]!; at += 1) covered[matchedTerms[at]!] = 1;
    }
    for (let index = windowSize; index < ranked.length && result.length < wanted; index += 1) {
      result.push(ranked[index]!);
    }
    return result;
  }

  /** Fills the tables: which typed terms each window slot's document has (through its forward index), and their idf. */
  private findMatchedTerms(
    ranked: readonly number[],
    windowSize: number,
    typedTerms: readonly number[],
    termCount: number,
  ): void {
    const { typedPosition, matchedTerms, matchedCounts, matchedMass, termMass } = this;
    const { idf, documentStarts, documentTerms } = this.postings;
    for (let term = 0; term < termCount; term += 1) {
      typedPosition[typedTerms[term]!] = term + 1;
      termMass[term] = idf[typedTerms[term]!]!;
    }
    for (let slot = 0; slot < windowSize; slot += 1) {
      const doc = ranked[slot]!;
      let count = 0;
      let mass = 0;
      for (let at = documentStarts[doc]!; at < documentStarts[doc + 1]!; at += 1) {
        const position = typedPosition[documentTerms[at]!]!;
        if (position === 0) continue;
        matchedTerms[slot * MAX_QUERY_TERMS + count] = position - 1;
        count += 1;
        mass += termMass[position - 1]!;
      }
      matchedCounts[slot] = count;
      matchedMass[slot] = mass;
    }
    for (let term = 0; term < termCount; term += 1) typedPosition[typedTerms[term]!] = 0;
  }
}
