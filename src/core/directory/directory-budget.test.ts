import { describe, expect, it } from "vitest";
import { directoryBudget } from "./directory-budget.js";

describe("directoryBudget", () => {
  it.each([
    ["unknown window", undefined, 18_000],
    ["a 32,768-token window", 32_768, 3_276],
    ["a small window is raised to 768", 1_000, 768],
    ["exactly 7,680 tokens", 7_680, 768],
    ["7,690 tokens", 7_690, 769],
    ["179,990 tokens", 179_990, 17_999],
    ["a huge window is capped at 18,000", 2_000_000, 18_000],
    ["an infinite window", Number.POSITIVE_INFINITY, 18_000],
    ["zero counts as unknown", 0, 18_000],
    ["a negative window counts as unknown", -5, 18_000],
    ["NaN counts as unknown", Number.NaN, 18_000],
  ])("%s", (_name, tokens, expected) => {
    expect(directoryBudget(tokens)).toBe(expected);
  });
});
