import { afterEach, describe, expect, it } from "vitest";
import { setWordSegmenterForTesting } from "./segment-spaceless.js";
import { stem } from "./stem.js";
import { splitWords, tokenize, wordForms } from "./tokenize.js";

describe("wordForms (the spec's unstemmed tokens of one word)", () => {
  it.each([
    ["getURLs", ["geturls", "get", "urls"]],
    ["readFile", ["readfile", "read", "file"]],
    ["web_search", ["web_search", "web", "search"]],
    ["XMLHttpRequest", ["xmlhttprequest", "xml", "http", "request"]],
    ["listURL", ["listurl", "list", "url"]],
    ["getV2Data", ["getv2data", "get", "v", "2", "data"]],
    ["_private", ["_private", "private"]],
    ["read", ["read"]],
    ["Weather", ["weather"]],
    ["URL", ["url"]],
    ["__", []],
  ])("%s gives %j", (word, forms) => {
    expect(wordForms(word)).toEqual(forms);
  });
});

describe("splitWords", () => {
  it("splits on anything that is not a letter, digit or underscore", () => {
    expect(splitWords("read-file, web_search (v2)/x.y")).toEqual([
      "read",
      "file",
      "web_search",
      "v2",
      "x",
      "y",
    ]);
  });

  it("keeps non-Latin words and their combining marks whole", () => {
    expect(splitWords("Привет мир: naïve café ราคาสินค้า")).toEqual([
      "Привет",
      "мир",
      "naïve",
      "café",
      "ราคาสินค้า",
    ]);
  });

  it("normalises full-width and compatibility characters (NFKC)", () => {
    expect(splitWords("ＡＰＩ ｋｅｙ")).toEqual(["API", "key"]);
  });
});

describe("tokenize", () => {
  it("emits whole words and parts, stemmed", () => {
    expect(tokenize("getURLs")).toEqual(["geturl", "get", "url"]);
    expect(tokenize("readFile web_search")).toEqual([
      "readfil",
      "read",
      "fil",
      "web_search",
      "web",
      "search",
    ]);
  });

  it("drops English stopwords but keeps capability verbs", () => {
    expect(tokenize("get the list of all files for me")).toEqual(["get", "list", stem("files")]);
    expect(tokenize("the and of to")).toEqual([]);
    expect(tokenize("do")).toEqual([]);
  });

  it("drops the pieces of e.g. / i.e. / etc.", () => {
    expect(tokenize("a city (e.g. Paris, i.e. a capital, etc.)")).toEqual(["citi", "paris", "capital"]);
  });

  it("reads common abbreviations as the word they stand for", () => {
    expect(tokenize("getUserInfo")).toEqual(["getuserinfo", "get", "user", "information"]);
    expect(tokenize("info")).toEqual(tokenize("information"));
    expect(tokenize("db config")).toEqual(tokenize("database configuration"));
  });

  it("stems documents and queries alike", () => {
    expect(tokenize("Scheduling reminders")).toEqual(tokenize("schedule remind"));
    expect(tokenize("running runner")).toEqual(["run", "run"]);
    expect(tokenize("calling processing")).toEqual(["call", "process"]);
  });

  it("drops blobs longer than 64 characters but keeps their parts", () => {
    const blob = "a".repeat(65);
    expect(tokenize(blob)).toEqual([]);
    expect(tokenize(`${"x".repeat(70)}_search`)).toEqual(["search"]);
  });

  it("never matches substrings: `read` is not a token of spreadsheet_open", () => {
    expect(tokenize("spreadsheet_open")).not.toContain("read");
    expect(tokenize("spreadsheet_open")).toEqual(["spreadsheet_open", "spreadsheet", "open"]);
  });

  it("survives huge and odd input", () => {
    expect(tokenize("word ".repeat(20_000))).toHaveLength(20_000);
    expect(tokenize("\u0000\ud800 \udfff")).toEqual([]);
    expect(tokenize("__proto__ constructor")).toEqual(["__proto__", "proto", "constructor"]);
  });
});

describe("spaceless scripts", () => {
  afterEach(() => setWordSegmenterForTesting(undefined));

  it("finds 価格 inside a longer run of Japanese", () => {
    expect(tokenize("ビットコインの価格を調べる")).toContain("価格");
    expect(new Set(tokenize("価格"))).toEqual(new Set(["価格"]));
  });

  it("segments Chinese and Thai the same way in documents and queries", () => {
    const document = new Set(tokenize("查询比特币价格"));
    for (const term of tokenize("价格")) expect(document.has(term)).toBe(true);
    const thai = new Set(tokenize("ราคาบิตคอยน์วันนี้"));
    for (const term of tokenize("ราคา")) expect(thai.has(term)).toBe(true);
  });

  it("falls back to character bigrams without Intl.Segmenter", () => {
    setWordSegmenterForTesting(null);
    expect(tokenize("ビットコインの価格")).toEqual([
      "ビッ",
      "ット",
      "トコ",
      "コイ",
      "イン",
      "ンの",
      "の価",
      "価格",
    ]);
    expect(tokenize("価格")).toEqual(["価格"]);
    expect(tokenize("価")).toEqual(["価"]);
  });

  it("splits mixed words into their Latin and spaceless runs", () => {
    expect(tokenize("iPhone価格")).toEqual(expect.arrayContaining(["iphon", "phon", "価格"]));
  });
});
