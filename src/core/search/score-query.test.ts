import { describe, expect, it } from "vitest";
import { analyzeQuery, analyzeSentences } from "./analyze-query.js";
import { buildPostings } from "./build-postings.js";
import { SENTENCE_FLOOR, SENTENCE_POWER } from "./ranking-parameters.js";
import { createQueryScorer } from "./score-query.js";
import { entriesOf } from "./search.test-support.js";

const entries = entriesOf(
  { name: "get_weather", description: "Weather forecast for a city" },
  { name: "weather_alerts", description: "Severe weather alerts" },
  { name: "send_email", description: "Send an email message to a contact" },
  { name: "search_web", description: "Search the web" },
  { name: "book_flight", description: "Book a flight ticket" },
);
const postings = buildPostings(entries);

/** Plain BM25F of a one-sentence query for one document, from the postings. */
function bm25f(query: string, doc: number): number {
  let score = 0;
  for (const { term, weight } of analyzeQuery(query)) {
    const termId = postings.termIds.get(term);
    if (termId === undefined) continue;
    for (let at = postings.offsets[termId]!; at < postings.offsets[termId + 1]!; at += 1) {
      if (postings.docs[at] === doc) score += weight * postings.idf[termId]! * postings.weights[at]!;
    }
  }
  return score;
}

function scores(query: string): number[] {
  const scorer = createQueryScorer(postings, entries.length);
  scorer.score(analyzeSentences(query));
  return entries.map((_, doc) => scorer.scoreOf(doc));
}

describe("createQueryScorer", () => {
  it("orders a one-sentence query exactly as BM25F: (score / best) ^ power", () => {
    const query = "weather forecast alerts";
    const plain = entries.map((_, doc) => bm25f(query, doc));
    const best = Math.max(...plain);
    const actual = scores(query);
    plain.forEach((score, doc) => {
      expect(actual[doc]).toBeCloseTo((score / best) ** SENTENCE_POWER, 10);
    });
  });

  it("lists exactly the matched documents and marks literal hits", () => {
    const scorer = createQueryScorer(postings, entries.length);
    scorer.score(analyzeSentences("look up email"));
    const touched = Array.from(scorer.touched.subarray(0, scorer.touchedCount)).sort();
    // "email" is typed; "look up" adds search, web (search_web) and get (get_weather).
    expect(touched).toEqual([0, 2, 3]);
    expect(scorer.isLiteral(2)).toBe(true);
    expect(scorer.isLiteral(3)).toBe(false);
    expect(scorer.isLiteral(0)).toBe(false);
    expect(scorer.scoreOf(4)).toBe(0);
  });

  it("normalises each sentence by max(its best, floor × best of all) before summing", () => {
    const first = "weather forecast for a city";
    const second = "book";
    const best = (query: string) => Math.max(...entries.map((_, doc) => bm25f(query, doc)));
    const bestOfAll = Math.max(best(first), best(second));
    const expected = entries.map((_, doc) => {
      let total = 0;
      for (const sentence of [first, second]) {
        const scale = 1 / Math.max(best(sentence), SENTENCE_FLOOR * bestOfAll);
        total += (bm25f(sentence, doc) * scale) ** SENTENCE_POWER;
      }
      return total;
    });
    const actual = scores(`${first}. ${second}.`);
    expected.forEach((score, doc) => {
      expect(actual[doc]).toBeCloseTo(score, 10);
    });
  });

  it("lets each intent of a multi-sentence query reach the top", () => {
    const actual = scores("I need the weather forecast and weather alerts for Paris. Then book a flight.");
    const ranked = entries.map((_, doc) => doc).sort((left, right) => actual[right]! - actual[left]!);
    expect(ranked.slice(0, 3)).toEqual(expect.arrayContaining([0, 1, 4]));
  });

  it("forgets the previous query", () => {
    const scorer = createQueryScorer(postings, entries.length);
    scorer.score(analyzeSentences("email"));
    scorer.score(analyzeSentences("flight"));
    expect(scorer.scoreOf(2)).toBe(0);
    expect(scorer.isLiteral(2)).toBe(false);
    expect(scorer.scoreOf(4)).toBeGreaterThan(0);
    scorer.score([]);
    expect(scorer.touchedCount).toBe(0);
  });
});
