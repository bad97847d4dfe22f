import { describe, expect, it } from "vitest";
import { makeTool } from "../catalog/catalog.test-support.js";
import { buildCatalog } from "../catalog/index.js";
import { catalogHasScript, nearCatalogWords, queryWordCoverage } from "./query-word-coverage.js";

const { entries } = buildCatalog([
  makeTool("create_calendar_event", { description: "Schedules a meeting in the calendar." }),
  makeTool("calendar_list", { description: "Lists calendars." }),
  makeTool("lookup_price", { description: "価格を調べる" }),
]).snapshot;

describe("queryWordCoverage", () => {
  it("counts the entries holding each query word, in the index's own tokenisation", () => {
    const coverage = queryWordCoverage(entries, "the calendars scheduling teleport");
    expect(coverage.map((word) => [word.word, word.documents])).toEqual([
      ["the", 0],
      ["calendars", 2],
      ["scheduling", 1],
      ["teleport", 0],
    ]);
    expect(coverage[0]?.terms).toEqual([]);
    expect(coverage[3]?.terms.length).toBeGreaterThan(0);
  });

  it("finds catalog words that start like a misspelt word, most common first", () => {
    expect(nearCatalogWords(entries, "calender", { prefix: 4, max: 3 })).toEqual(["calendar"]);
    expect(nearCatalogWords(entries, "zz", { prefix: 4, max: 3 })).toEqual([]);
  });

  it("knows which scripts the catalog has text in", () => {
    expect(catalogHasScript(entries, "Han")).toBe(true);
    expect(catalogHasScript(entries, "Cyrillic")).toBe(false);
  });
});
