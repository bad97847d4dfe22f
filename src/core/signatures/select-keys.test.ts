import { describe, expect, it } from "vitest";
import { selectKeys } from "./select-keys.js";

describe("selectKeys", () => {
  it("takes required keys first, then optional ones, each by code units", () => {
    expect(selectKeys(["d", "a", "C", "b", "e"], new Set(["e", "b"]), 3)).toEqual(["b", "e", "C"]);
  });

  it("returns every key, ordered, when there are no more than the limit", () => {
    expect(selectKeys(["b", "a"], new Set(), 5)).toEqual(["a", "b"]);
  });

  it("matches a full sort for any input order", () => {
    const keys = Array.from({ length: 200 }, (_, index) => `k${(index * 7919) % 200}`);
    const required = new Set(keys.filter((_, index) => index % 3 === 0));
    const expected = [...keys]
      .sort((left, right) => {
        const byRequired = Number(required.has(right)) - Number(required.has(left));
        return byRequired !== 0 ? byRequired : left < right ? -1 : left > right ? 1 : 0;
      })
      .slice(0, 16);
    expect(selectKeys(keys, required, 16)).toEqual(expected);
  });

  it("selects nothing for a zero limit", () => {
    expect(selectKeys(["a"], new Set(), 0)).toEqual([]);
  });
});
