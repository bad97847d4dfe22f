import { describe, expect, it } from "vitest";
import { collapseWhitespace, cutText } from "./cut-text.js";

describe("cutText", () => {
  it("returns text that fits unchanged", () => {
    expect(cutText("hello", 5)).toBe("hello");
  });

  it("cuts to the budget including the marker", () => {
    expect(cutText("abcdefghij", 8)).toBe("abcde...");
    expect(cutText("abcdefghij", 8)).toHaveLength(8);
  });

  it("never splits a surrogate pair", () => {
    const text = "ab😀cdef";
    // budget 6 with a 3-char marker leaves 3 code units: "ab" + half an emoji -> cut before the emoji
    expect(cutText(text, 6)).toBe("ab...");
    const cut = cutText("😀".repeat(10), 8);
    expect(cut).toBe("😀😀...");
    expect(cut.isWellFormed()).toBe(true);
  });

  it("supports other markers", () => {
    expect(cutText("x".repeat(30), 20, "[truncated]")).toBe(`${"x".repeat(9)}[truncated]`);
  });
});

describe("collapseWhitespace", () => {
  it("collapses runs of whitespace and trims", () => {
    expect(collapseWhitespace("  a\n\t b  c ")).toBe("a b c");
  });
});
