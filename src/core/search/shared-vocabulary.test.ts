import { describe, expect, it } from "vitest";
import { analyzeQuery } from "./analyze-query.js";
import { buildPostings, type Postings } from "./build-postings.js";
import { entriesOf } from "./search.test-support.js";
import { createVocabulary, vocabularyForBuild, vocabularyForQueries } from "./shared-vocabulary.js";
import { wordTerms } from "./tokenize.js";

const weather = entriesOf(
  { name: "get_weather", description: "Weather forecast for a city" },
  { name: "weather_alerts", description: "Severe weather alerts and weather warnings" },
);
const mail = entriesOf(
  { name: "send_email", description: "Send an email message to a contact" },
  { name: "listInbox", description: "List the messages in the inbox" },
);

/** Every term of `entries` with its postings, in a form independent of term numbering. */
function snapshotOf(postings: Postings, terms: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const term of terms) {
    const termId = postings.termIds.get(term);
    if (termId === undefined) continue;
    const list: string[] = [];
    for (let at = postings.offsets[termId]!; at < postings.offsets[termId + 1]!; at += 1) {
      list.push(`${postings.docs[at]}:${postings.weights[at]!.toFixed(6)}`);
    }
    result[term] = `${postings.idf[termId]!.toFixed(6)} ${list.join(",")}`;
  }
  return result;
}

const allTerms = [
  ...new Set(
    [...weather, ...mail].flatMap((entry) =>
      `${entry.name} ${entry.description} native plugin test`.split(/\W+/).flatMap(wordTerms),
    ),
  ),
];

describe("the shared build vocabulary", () => {
  it("gives the same postings whether it is cold, warm, or holds other catalogs' words", () => {
    const cold = snapshotOf(buildPostings(weather, createVocabulary()), allTerms);
    const shared = createVocabulary();
    buildPostings(mail, shared);
    const warm = buildPostings(weather, shared);
    expect(snapshotOf(warm, allTerms)).toEqual(cold);
    expect(snapshotOf(buildPostings(weather, shared), allTerms)).toEqual(cold);
    expect(warm.termIds.size).toBe(buildPostings(weather, createVocabulary()).termIds.size);
  });

  it("knows only its own terms, even after the vocabulary has grown with another catalog", () => {
    const shared = createVocabulary();
    const postings = buildPostings(weather, shared);
    buildPostings(mail, shared);
    expect(postings.termIds.get(wordTerms("weather")[0]!)).toBeDefined();
    expect(postings.termIds.get("email")).toBeUndefined();
    expect(postings.termIds.get("inbox")).toBeUndefined();
    expect(postings.termIds.get("never-seen")).toBeUndefined();
  });

  it("counts every term of a document that brings more new terms than the first buffers hold", () => {
    // 1,300 new terms in one document (the per-term buffers start at 1,024), in a description under the cap.
    const words = Array.from({ length: 1_300 }, (_, index) => `w${index}`);
    const entries = entriesOf(
      { name: "first", description: words.join(" ") },
      { name: "second", description: words.slice(0, 600).join(" ") },
    );
    const postings = buildPostings(entries, createVocabulary());
    for (const [index, word] of words.entries()) {
      const termId = postings.termIds.get(word)!;
      expect(postings.offsets[termId + 1]! - postings.offsets[termId]!, word).toBe(index < 600 ? 2 : 1);
    }
  });

  it("is shared between builds and started afresh once it holds more than the cap", () => {
    const first = vocabularyForBuild();
    expect(vocabularyForBuild()).toBe(first);
    buildPostings(weather);
    const fresh = vocabularyForBuild(first.words.size - 1);
    expect(fresh).not.toBe(first);
    expect(fresh.words.size).toBe(0);
    expect(vocabularyForBuild()).toBe(fresh);
  });

  it("leaves an index built before a fresh start working", async () => {
    const { createSearchIndex } = await import("./search-index.js");
    const index = createSearchIndex(weather);
    expect(index.search("forecast", 5).map((entry) => entry.name)).toEqual(["get_weather"]);
    vocabularyForBuild(0);
    createSearchIndex(mail).search("inbox", 1);
    expect(index.search("weather warnings", 5).map((entry) => entry.name)).toEqual([
      "weather_alerts",
      "get_weather",
    ]);
  });

  it("keeps query words out of the build vocabulary, and starts the query words afresh past their cap", () => {
    const before = analyzeQuery("quokkaLookup lookups for Quokka habitats");
    expect(vocabularyForBuild().numberOfTerm.has("quokkalookup")).toBe(false);
    const queryWords = vocabularyForQueries();
    expect(queryWords.numberOfTerm.has("quokkalookup")).toBe(true);
    const fresh = vocabularyForQueries(0);
    expect(fresh).not.toBe(queryWords);
    expect(analyzeQuery("quokkaLookup lookups for Quokka habitats")).toEqual(before);
    expect(vocabularyForQueries()).toBe(fresh);
  });
});
