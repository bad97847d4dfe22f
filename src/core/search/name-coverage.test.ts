import { describe, expect, it } from "vitest";
import type { Postings } from "./build-postings.js";
import { addNameCoverage } from "./name-coverage.js";
import { NAME_COVERAGE_BONUS } from "./ranking-parameters.js";

/** Postings for three terms over two documents: term 0 in both, term 1 in document 0, term 2 in document 1. */
function postingsOf(): Postings {
  return {
    termIds: new Map([
      ["get", 0],
      ["humidity", 1],
      ["building", 2],
    ]),
    offsets: Uint32Array.from([0, 2, 3, 4]),
    docs: Uint32Array.from([0, 1, 0, 1]),
    weights: Float32Array.from([1, 1, 2, 2]),
    idf: Float32Array.from([0.5, 3, 4]),
  };
}

describe("addNameCoverage", () => {
  it("adds NAME_COVERAGE_BONUS / Σ idf(name parts) to the postings of the name's parts only", () => {
    const postings = postingsOf();
    // Document 0 is named get + humidity; document 1 is named building (its `get` is not a name part).
    addNameCoverage(postings, { offsets: Uint32Array.from([0, 2, 3]), terms: Uint32Array.from([0, 1, 2]) });
    const first = NAME_COVERAGE_BONUS / (0.5 + 3);
    const second = NAME_COVERAGE_BONUS / 4;
    expect(Array.from(postings.weights)).toEqual(
      [1 + first, 1, 2 + first, 2 + second].map((weight) => Math.fround(weight)),
    );
  });

  it("gives a query that has every part of a name the whole bonus, weighted by idf", () => {
    const postings = postingsOf();
    addNameCoverage(postings, { offsets: Uint32Array.from([0, 2, 3]), terms: Uint32Array.from([0, 1, 2]) });
    const gain = (term: number, posting: number, plain: number) =>
      postings.idf[term]! * (postings.weights[posting]! - plain);
    expect(gain(0, 0, 1) + gain(1, 2, 2)).toBeCloseTo(NAME_COVERAGE_BONUS, 5);
    expect(gain(1, 2, 2)).toBeCloseTo((NAME_COVERAGE_BONUS * 3) / 3.5, 5);
  });

  it("scales each document's bonus by its share of name evidence", () => {
    const postings = postingsOf();
    const parts = { offsets: Uint32Array.from([0, 2, 3]), terms: Uint32Array.from([0, 1, 2]) };
    addNameCoverage(postings, parts, Float64Array.from([0, 0.5]));
    expect(Array.from(postings.weights)).toEqual(
      [1, 1, 2, 2 + (0.5 * NAME_COVERAGE_BONUS) / 4].map((weight) => Math.fround(weight)),
    );
  });

  it("leaves postings alone for a document whose name has no parts", () => {
    const postings = postingsOf();
    addNameCoverage(postings, { offsets: Uint32Array.from([0, 0, 0]), terms: new Uint32Array(0) });
    expect(Array.from(postings.weights)).toEqual([1, 1, 2, 2]);
  });
});
