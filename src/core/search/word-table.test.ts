import { describe, expect, it } from "vitest";
import { splitWords } from "./tokenize.js";
import { WordTable } from "./word-table.js";

/** A table whose term ids are the word's index in `seen`, recording each word it was asked to tokenise. */
function recordingTable(): { table: WordTable; seen: string[] } {
  const seen: string[] = [];
  const table = new WordTable((word) => {
    seen.push(word);
    return [seen.length - 1];
  });
  return { table, seen };
}

function wordsOf(table: WordTable, seen: readonly string[], text: string): string[] {
  const count = table.scan(text);
  return Array.from(
    table.scanned.subarray(0, count),
    (word) => seen[table.flatTermIds[table.termStarts[word]!]!]!,
  );
}

describe("WordTable", () => {
  it.each([
    "Get the weather_forecast for getURLs, v2 and x.y",
    "naïve café ＡＰＩ ビットコインの価格 Привет",
    "",
    "  ...  ",
    "trailing word",
  ])("scans %j into the words splitWords finds", (text) => {
    const { table, seen } = recordingTable();
    expect(wordsOf(table, seen, text)).toEqual(splitWords(text));
  });

  it("tokenises each distinct word once and reuses it", () => {
    const { table, seen } = recordingTable();
    wordsOf(table, seen, "alpha beta alpha");
    wordsOf(table, seen, "beta gamma Alpha");
    expect(seen).toEqual(["alpha", "beta", "gamma", "Alpha"]);
  });

  it("keeps every word apart through growth and rehashing", () => {
    const { table, seen } = recordingTable();
    const text = Array.from({ length: 50_000 }, (_, index) => `w${index}`).join(" ");
    expect(wordsOf(table, seen, text)).toEqual(splitWords(text));
    expect(wordsOf(table, seen, "w49999 w0")).toEqual(["w49999", "w0"]);
    expect(seen).toHaveLength(50_000);
  });

  it("handles words with no terms", () => {
    const table = new WordTable(() => []);
    const count = table.scan("the of and");
    expect(count).toBe(3);
    for (const word of table.scanned.subarray(0, count)) {
      expect(table.termStarts[word + 1]! - table.termStarts[word]!).toBe(0);
    }
  });
});
