import { describe, expect, it } from "vitest";
import { cutText, cutTextLength } from "./cut-text.js";

describe("cutTextLength", () => {
  it("equals cutText's length for every budget around surrogate pairs", () => {
    const texts = [
      "",
      "abc",
      "a😀b😀c😀d",
      "😀".repeat(40),
      `${"x".repeat(63)}😀tail`,
      `${"x".repeat(179)}😀`,
    ];
    for (const text of texts) {
      for (let max = 0; max <= text.length + 2; max += 1) {
        expect(cutTextLength(text, max)).toBe(cutText(text, max).length);
      }
    }
  });
});
