import { describe, expect, it } from "vitest";
import { analyzeQuery, analyzeSentences, type QueryTerm } from "./analyze-query.js";
import { EXPANSION_GROUPS } from "./expansion-groups.js";
import { MAX_QUERY_SENTENCES, MAX_QUERY_TERMS } from "./limits.js";
import { EXPANSION_WEIGHT, LEXICON_WEIGHT } from "./ranking-parameters.js";
import { stem } from "./stem.js";
import { tokenize } from "./tokenize.js";

const weightOf = (terms: readonly QueryTerm[], word: string): number | undefined =>
  terms.find((term) => term.term === stem(word))?.weight;
const added = (query: string): string[] =>
  analyzeQuery(query)
    .filter((term) => !term.literal)
    .map((term) => term.term);

describe("analyzeQuery: typed terms", () => {
  it("keeps each typed term once, in order, at weight 1", () => {
    expect(analyzeQuery("weather weather forecast")).toEqual([
      { term: stem("weather"), weight: 1, literal: true },
      { term: stem("forecast"), weight: 1, literal: true },
    ]);
  });

  it("is empty for blank and stopword-only queries", () => {
    expect(analyzeQuery("")).toEqual([]);
    expect(analyzeQuery("   \n\t ")).toEqual([]);
    expect(analyzeQuery("what is the and of it")).toEqual([]);
  });
});

describe("analyzeQuery: intent expansion", () => {
  it("`look up the price` adds search and web below the weight of price", () => {
    const terms = analyzeQuery("look up the price");
    expect(added("look up the price")).toEqual(expect.arrayContaining(["search", "web"]));
    expect(weightOf(terms, "price")).toBe(1);
    expect(weightOf(terms, "search")).toBe(EXPANSION_WEIGHT);
    expect(weightOf(terms, "web")).toBeLessThan(weightOf(terms, "price")!);
  });

  it("`list directories` adds file and keeps the typed list at full weight", () => {
    const terms = analyzeQuery("list directories");
    expect(added("list directories")).toContain(stem("file"));
    expect(weightOf(terms, "list")).toBe(1);
    expect(terms.find((term) => term.term === "list")?.literal).toBe(true);
  });

  it("`remind me tomorrow` adds schedule and cron", () => {
    expect(added("remind me tomorrow")).toEqual(expect.arrayContaining([stem("schedule"), "cron"]));
  });

  it("`run a shell command` adds exec and process", () => {
    expect(added("run a shell command")).toEqual(expect.arrayContaining(["exec", "process"]));
  });

  it("`open a new issue` adds nothing about search", () => {
    const terms = added("open a new issue");
    expect(terms).not.toContain("search");
    expect(terms).not.toContain("web");
  });

  it("`news` does not trigger `new`", () => {
    expect(added("latest news")).toEqual([]);
    expect(added("new issue")).not.toEqual([]);
  });

  it("a word the user typed keeps full weight even when a group adds it too", () => {
    const terms = analyzeQuery("search the web for the price");
    expect(weightOf(terms, "search")).toBe(1);
    expect(weightOf(terms, "web")).toBe(1);
  });

  it("expands nothing for a query with no usable word", () => {
    expect(analyzeQuery("up the")).toEqual([]);
  });

  it("the table holds generic capabilities whose terms are real tokens", () => {
    for (const group of EXPANSION_GROUPS) {
      expect(group.adds.length).toBeGreaterThan(0);
      for (const word of group.adds) expect(tokenize(word)).toHaveLength(1);
    }
  });

  it("caps the number of terms, typed terms first", () => {
    const words = Array.from({ length: MAX_QUERY_TERMS + 10 }, (_, index) => `word${index}x`);
    const terms = analyzeQuery(`search ${words.join(" ")}`);
    expect(terms).toHaveLength(MAX_QUERY_TERMS);
    expect(terms.every((term) => term.literal)).toBe(true);
  });
});

describe("analyzeQuery: synonym lexicon", () => {
  const synonyms = (query: string): string[] =>
    analyzeQuery(query)
      .filter((term) => term.weight === LEXICON_WEIGHT)
      .map((term) => term.term);

  it("`tell the team` adds the tool words send, post and message, as typed terms below full weight", () => {
    const terms = analyzeQuery("tell the team");
    expect(synonyms("tell the team")).toEqual(expect.arrayContaining(["send", "post", stem("message")]));
    for (const word of ["send", "post", "message"]) {
      expect(weightOf(terms, word)).toBe(LEXICON_WEIGHT);
      expect(terms.find((term) => term.term === stem(word))?.literal).toBe(true);
    }
    expect(LEXICON_WEIGHT).toBeLessThan(1);
    expect(LEXICON_WEIGHT).toBeGreaterThan(EXPANSION_WEIGHT);
  });

  it("relates objects too: a meeting is an event, a ticket an issue", () => {
    expect(synonyms("book a meeting")).toContain("event");
    expect(synonyms("open a ticket")).toContain("issu");
  });

  it("a two-word phrase overrides its first word: `tell me` reads (get), it does not send", () => {
    expect(synonyms("tell me the weather")).toContain("get");
    expect(synonyms("tell me the weather")).not.toContain("send");
    expect(synonyms("tell the weather station")).toContain("send");
  });

  it("a typed word keeps full weight when it is also a synonym", () => {
    const terms = analyzeQuery("send a message");
    expect(weightOf(terms, "message")).toBe(1);
    expect(weightOf(terms, "send")).toBe(1);
    expect(weightOf(terms, "post")).toBe(LEXICON_WEIGHT);
  });

  it("synonyms never trigger intent expansion; typed words still do", () => {
    // `send` (a synonym of `tell`) would trigger the messaging expansion, which adds `email`.
    expect(analyzeQuery("tell the team").map((term) => term.term)).not.toContain(stem("email"));
    expect(weightOf(analyzeQuery("send the report"), "email")).toBe(EXPANSION_WEIGHT);
  });

  it("`book` alone adds nothing: it is mostly a noun in tool catalogs", () => {
    expect(synonyms("book")).toEqual([]);
  });
});

describe("analyzeSentences", () => {
  it("splits at sentence ends and line breaks, not inside numbers or addresses", () => {
    const sentences = analyzeSentences(
      "Get the weather for 37.5 degrees at example.com. Then send an email!\nbook a table",
    );
    expect(
      sentences.map((terms) => terms.filter((term) => term.weight === 1).map((term) => term.term)),
    ).toEqual([
      tokenize("get weather 37 5 degrees example com"),
      tokenize("send email"),
      tokenize("book table"),
    ]);
  });

  it("leaves out sentences without a usable word", () => {
    expect(analyzeSentences("Hello. Please. Weather?")).toEqual([
      analyzeQuery("Hello"),
      analyzeQuery("Weather"),
    ]);
    expect(analyzeSentences("The. And. Of.")).toEqual([]);
  });

  it("caps sentences and terms", () => {
    const many = Array.from({ length: MAX_QUERY_SENTENCES + 5 }, (_, index) => `topic${index}x.`).join(" ");
    expect(analyzeSentences(many)).toHaveLength(MAX_QUERY_SENTENCES);
    const long = Array.from(
      { length: 40 },
      (_, index) => `alpha${index}x beta${index}x gamma${index}x zeta${index}x.`,
    );
    const total = analyzeSentences(long.join(" ")).reduce((sum, terms) => sum + terms.length, 0);
    expect(total).toBeLessThanOrEqual(MAX_QUERY_TERMS);
  });
});
