import { describe, expect, it } from "vitest";
import { NamePartsBuilder } from "./name-parts.js";
import { wordTerms } from "./tokenize.js";
import { WordTable } from "./word-table.js";

/** Name parts of each name, as term strings, through a word table like the one postings are built with. */
function namePartsOf(names: readonly string[]): string[][] {
  const terms: string[] = [];
  const table = new WordTable((word) =>
    wordTerms(word).map((term) => {
      const known = terms.indexOf(term);
      return known >= 0 ? known : terms.push(term) - 1;
    }),
  );
  const builder = new NamePartsBuilder(names.length);
  for (const name of names) builder.add(table, name);
  const { offsets, terms: termIds } = builder.finish();
  return names.map((_, doc) =>
    Array.from(termIds.subarray(offsets[doc], offsets[doc + 1]), (termId) => terms[termId]!),
  );
}

describe("NamePartsBuilder", () => {
  it("keeps the parts of a compound name and leaves its whole form out", () => {
    expect(namePartsOf(["getBuildingHumidity", "web_search", "getURLs"])).toEqual([
      ["get", "build", "humiditi"],
      ["web", "search"],
      ["get", "url"],
    ]);
  });

  it("keeps a one-word name whole, each part once, and nothing for a name without terms", () => {
    expect(namePartsOf(["translate", "get_get_item", "do", "read file"])).toEqual([
      ["translat"],
      ["get", "item"],
      [],
      ["read", "fil"],
    ]);
  });
});
