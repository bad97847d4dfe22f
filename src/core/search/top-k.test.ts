import { describe, expect, it } from "vitest";
import { selectTopK } from "./top-k.js";

/** A small deterministic pseudo-random sequence (no Math.random in tests). */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

function reference(candidates: number[], k: number, scores: Float64Array, tieRank: Uint32Array): number[] {
  return [...candidates]
    .sort((left, right) => scores[right]! - scores[left]! || tieRank[left]! - tieRank[right]!)
    .slice(0, k);
}

describe("selectTopK", () => {
  it("matches a full sort (score descending, then tie rank) on random data with many ties", () => {
    const next = sequence(7);
    for (let round = 0; round < 50; round += 1) {
      const size = 1 + Math.floor(next() * 300);
      const scores = Float64Array.from({ length: size }, () => Math.floor(next() * 10) / 2);
      const tieRank = Uint32Array.from(
        Array.from({ length: size }, (_, doc) => doc).sort(() => next() - 0.5),
      );
      const candidates = Array.from({ length: size }, (_, doc) => doc).filter(() => next() < 0.8);
      const k = 1 + Math.floor(next() * 25);
      expect(selectTopK(Uint32Array.from(candidates), candidates.length, k, scores, tieRank)).toEqual(
        reference(candidates, k, scores, tieRank),
      );
    }
  });

  it("reads only the first `count` candidates and handles k beyond them", () => {
    const scores = Float64Array.from([1, 5, 3, 9]);
    const tieRank = Uint32Array.from([0, 1, 2, 3]);
    expect(selectTopK(Uint32Array.from([0, 1, 2, 3]), 3, 10, scores, tieRank)).toEqual([1, 2, 0]);
    expect(selectTopK(Uint32Array.from([0, 1, 2, 3]), 0, 10, scores, tieRank)).toEqual([]);
    expect(selectTopK(Uint32Array.from([0, 1, 2, 3]), 4, 0, scores, tieRank)).toEqual([]);
  });

  it("breaks equal scores by tie rank", () => {
    const scores = Float64Array.from([2, 2, 2, 2]);
    const tieRank = Uint32Array.from([3, 1, 0, 2]);
    expect(selectTopK(Uint32Array.from([0, 1, 2, 3]), 4, 3, scores, tieRank)).toEqual([2, 1, 3]);
  });
});
