import { describe, expect, it } from "vitest";
import { echoTool } from "./controls.test-support.js";
import { controls, textOf } from "./create-control-tools.test-support.js";
import type { BatchSearchResponse, SingleSearchDetails } from "./types.js";

const catalog = [
  echoTool("create_calendar_event", { description: "Create an event in the calendar." }),
  echoTool("send_email", { description: "Send an email message." }),
  echoTool("list_files", { description: "List the files of a directory." }),
];

describe("tool_search with zero results", () => {
  it("names the query words that match no tool and suggests catalog words, in details and text", async () => {
    const { search } = controls({}, catalog);
    const result = await search.execute({ query: "frobnicate calender" }, {});
    const details = result.details as SingleSearchDetails;
    expect(details).toHaveLength(0);
    expect(details.noMatch).toMatchObject({
      unmatchedWords: ["frobnicate", "calender"],
      suggestions: ["calendar"],
      missingScripts: [],
    });
    expect(details.noMatch?.hint).toBe(
      'No tool matched "frobnicate calender". These words match no tool: frobnicate, calender. ' +
        "Words the catalog uses: calendar. " +
        'Try shorter English capability words: a verb and an object, e.g. "send email", "list files", "create event".',
    );
    const { hint, ...noMatch } = details.noMatch ?? { hint: "" };
    // the text has the shape of a one-query batch answer
    expect(JSON.parse(textOf(result))).toEqual({
      results: [{ query: "frobnicate calender", candidates: [], noMatch }],
      hint,
    });
  });

  it("says when the catalog has no text in the query's script", async () => {
    const { search } = controls({}, catalog);
    const details = (await search.execute({ query: "отправить письмо" }, {})).details as SingleSearchDetails;
    expect(details.noMatch?.unmatchedWords).toEqual(["отправить", "письмо"]);
    expect(details.noMatch?.missingScripts).toEqual(["Cyrillic"]);
    expect(details.noMatch?.hint).toContain(
      "The catalog has no text in Cyrillic script: write the query in English.",
    );
    const chinese = (await search.execute({ query: "发送邮件" }, {})).details as SingleSearchDetails;
    expect(chinese.noMatch?.missingScripts).toEqual(["Han (Chinese characters)"]);
  });

  it("does not claim a missing script when the catalog has text in it", async () => {
    const { search } = controls({}, [...catalog, echoTool("price_lookup", { description: "価格を調べる" })]);
    const details = (await search.execute({ query: "天気" }, {})).details as SingleSearchDetails;
    expect(details).toHaveLength(0);
    expect(details.noMatch?.unmatchedWords).toEqual(["天気"]);
    expect(details.noMatch?.missingScripts).toEqual([]);
  });

  it("adds no note to a query that found tools, nor to a blank query", async () => {
    const { search } = controls({}, catalog);
    const found = (await search.execute({ query: "send email" }, {})).details as SingleSearchDetails;
    expect(found.length).toBeGreaterThan(0);
    expect(found.noMatch).toBeUndefined();
    const blank = await search.execute({ query: "   " }, {});
    expect(blank.details).toEqual([]);
    expect(textOf(blank)).toBe("[]");
  });

  it("marks batch groups that matched nothing and gives the batch one hint", async () => {
    const { search } = controls({}, catalog);
    const result = await search.execute({ queries: [{ query: "send email" }, { query: "teleport" }] }, {});
    const details = result.details as BatchSearchResponse;
    expect(details.results[0]?.noMatch).toBeUndefined();
    expect(details.results[1]).toEqual({
      query: "teleport",
      candidates: [],
      noMatch: { unmatchedWords: ["teleport"], suggestions: [], missingScripts: [] },
    });
    expect(details.hint).toMatch(/^Queries whose group has noMatch found no tool/);
    expect(JSON.parse(textOf(result))).toEqual(details);
  });

  it("keeps a batch of no-match notes within the response budget", async () => {
    const { search } = controls({}, catalog);
    const queries = Array.from({ length: 16 }, (_, index) => ({ query: `zq${index}x${"w".repeat(20)}` }));
    const result = await search.execute({ queries }, {});
    expect(textOf(result).length).toBeLessThanOrEqual(4_000);
  });
});
