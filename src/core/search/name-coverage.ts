import type { Postings } from "./build-postings.js";
import type { NameParts } from "./name-parts.js";
import { NAME_COVERAGE_BONUS } from "./ranking-parameters.js";

/**
 * Adds name-part coverage to the postings: each posting of a term that is a part of the document's name gains
 * `NAME_COVERAGE_BONUS / Σ idf(parts of the name)`. A query term's contribution is `weight · idf · w`, so a
 * sentence's score gains `NAME_COVERAGE_BONUS × Σ over the name parts it has (weight · idf) / Σ idf(parts)`:
 * the idf-weighted share of the name the request spells out. Among tools that match the same words, the one
 * whose name the request covers best comes first (`getHumidity` before `getBuildingHumidity` for "the
 * humidity level of the location"), and missing a rare part costs more than missing `get`. `shares` scales the
 * bonus per document (its server's share of name evidence, see `nameEvidenceShares`; 1 when absent). Folded in
 * at build time, it costs a query nothing.
 */
export function addNameCoverage(postings: Postings, nameParts: NameParts, shares?: Float64Array): void {
  const { offsets: postingOffsets, docs, weights, idf } = postings;
  const { offsets, terms } = nameParts;
  for (let doc = 0; doc + 1 < offsets.length; doc += 1) {
    const start = offsets[doc]!;
    const end = offsets[doc + 1]!;
    let idfTotal = 0;
    for (let at = start; at < end; at += 1) idfTotal += idf[terms[at]!]!;
    const bonus = ((shares?.[doc] ?? 1) * NAME_COVERAGE_BONUS) / idfTotal;
    if (bonus === 0) continue;
    for (let at = start; at < end; at += 1) {
      const term = terms[at]!;
      const posting = findPosting(docs, postingOffsets[term]!, postingOffsets[term + 1]!, doc);
      if (posting >= 0) weights[posting] = weights[posting]! + bonus;
    }
  }
}

/** The index of `doc` in the ascending `docs[start..end)`, or -1 (binary search). */
function findPosting(docs: Uint32Array, start: number, end: number, doc: number): number {
  let low = start;
  let high = end - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = docs[middle]!;
    if (found === doc) return middle;
    if (found < doc) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
