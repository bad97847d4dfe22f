import { describe, expect, it } from "vitest";
import { LEXICON_GROUPS } from "./lexicon-groups.js";
import { tokenize } from "./tokenize.js";

describe("LEXICON_GROUPS", () => {
  const triggers = LEXICON_GROUPS.flatMap((group) => group.triggers.map((trigger) => ({ group, trigger })));

  it("holds lowercase everyday words: each word trigger and each added word is one query term", () => {
    for (const { trigger } of triggers) {
      expect(trigger).toMatch(/^[a-z]+( [a-z]+)?$/);
      if (!trigger.includes(" ")) expect(tokenize(trigger), trigger).toHaveLength(1);
    }
    for (const group of LEXICON_GROUPS) {
      expect(group.adds.length).toBeGreaterThan(0);
      for (const word of group.adds) expect(tokenize(word), word).toHaveLength(1);
    }
  });

  it("fires each query term (or phrase) from one group only", () => {
    const owners = new Map<string, string>();
    for (const { group, trigger } of triggers) {
      const key = trigger.includes(" ") ? trigger : tokenize(trigger)[0]!;
      expect(owners.get(key) ?? group.meaning, `${trigger} is in two groups`).toBe(group.meaning);
      owners.set(key, group.meaning);
    }
  });

  it("leaves out `book`, mostly a noun in tool catalogs, from every trigger (its stem is `booking`'s too)", () => {
    const stems = new Set(triggers.flatMap(({ trigger }) => tokenize(trigger)));
    expect(stems.has(tokenize("book")[0]!)).toBe(false);
  });
});
