import { describe, expect, it } from "vitest";
import { entriesOf, entryOf, namesOf } from "./search.test-support.js";
import { createSearchIndex } from "./search-index.js";

const catalog = entriesOf(
  { name: "web_search", description: "Search the web for pages" },
  { name: "get_price", description: "Current price of a product" },
  { name: "read", description: "Read a file from disk", origin: { kind: "core" } },
  { name: "spreadsheet_open", description: "Open a spreadsheet" },
  { name: "list_dir", description: "List the files in a directory" },
  { name: "cron_add", description: "Schedule a recurring task" },
  { name: "exec", description: "Run a shell command", origin: { kind: "core" } },
  { name: "create_issue", description: "Open a new issue in a tracker" },
  { name: "latest_news", description: "Today's news headlines" },
  { name: "privacy", description: "Show the privacy policies and cookies" },
);
const index = createSearchIndex(catalog);
const search = (query: string, limit = 10) => namesOf(index.search(query, limit));

describe("createSearchIndex: matching", () => {
  it("knows its size", () => {
    expect(index.size).toBe(catalog.length);
    expect(createSearchIndex([]).size).toBe(0);
    expect(createSearchIndex([]).search("anything", 5)).toEqual([]);
  });

  it("returns [] for a query with no usable word, never an arbitrary slice", () => {
    for (const query of ["", "   ", "\n\t", "the of and", "what is it", "zzzqqq", "?!", "価格"]) {
      expect(search(query)).toEqual([]);
    }
  });

  it("does not match substrings: `read` does not find spreadsheet_open", () => {
    expect(search("read")).toEqual(["read"]);
    expect(search("spread")).toEqual([]);
  });

  it("stems documents and queries alike", () => {
    expect(search("scheduling")).toContain("cron_add");
    expect(search("policy")).toEqual(["privacy"]);
    expect(search("cookie")).toEqual(["privacy"]);
    expect(search("news")[0]).toBe("latest_news");
    expect(search("news")).not.toContain("create_issue");
  });

  it("finds `price` first and web search through expansion for `look up the price`", () => {
    const ranked = search("look up the price");
    expect(ranked[0]).toBe("get_price");
    expect(ranked).toContain("web_search");
  });

  it("ranks a literal match above an expansion-only one", () => {
    // "directories" is typed; "file", "list" and "folder" come from expansion only.
    const tools = [
      { name: "file_folder_list", description: "File folder list: list file folder" },
      {
        name: "browse",
        description:
          "Browse many remote network shares mounted over slow links, including directories and more",
      },
    ];
    const entries = entriesOf(...tools);
    expect(namesOf(createSearchIndex(entries).search("directories", 5))).toEqual([
      "browse",
      "file_folder_list",
    ]);
    // Without the typed word the expansion-only entry scores higher: only the tier keeps browse first.
    expect(namesOf(createSearchIndex(entries).search("file folder list directories", 5))[0]).toBe(
      "file_folder_list",
    );
  });

  it("matches `remind me tomorrow` and `run a shell command` through expansion", () => {
    expect(search("remind me tomorrow")).toContain("cron_add");
    expect(search("run a shell command")[0]).toBe("exec");
  });

  it("respects the limit", () => {
    expect(search("a file list directory schedule web", 2)).toHaveLength(2);
    expect(search("web", 1)).toEqual(["web_search"]);
    expect(index.search("web", 0)).toEqual([]);
    expect(index.search("web", Number.NaN)).toEqual([]);
  });

  it("indexes non-Latin catalog text and matches it by the same script", () => {
    const mixed = createSearchIndex(
      entriesOf(
        { name: "coin_price", description: "ビットコインの価格を調べる" },
        { name: "weather", description: "Weather forecast" },
      ),
    );
    expect(namesOf(mixed.search("価格", 5))).toEqual(["coin_price"]);
    expect(namesOf(mixed.search("天気", 5))).toEqual([]);
    expect(namesOf(mixed.search("Wetter", 5))).toEqual([]);
  });
});

describe("createSearchIndex: order", () => {
  it("puts the entry whose id equals the trimmed query first", () => {
    const entries = entriesOf(
      { name: "read", description: "read read read read", origin: { kind: "plugin", owner: "files" } },
      { name: "read", description: "Read", origin: { kind: "mcp", owner: "disk" } },
    );
    const ranked = createSearchIndex(entries).search("  mcp:disk:read  ", 5);
    expect(ranked.map((entry) => entry.id)).toEqual(["mcp:disk:read", "native:files:read"]);
  });

  it("puts an exact-spelling name before a case variant, then literal matches", () => {
    const entries = entriesOf(
      { name: "listUrl", description: "List a URL" },
      { name: "listURL", description: "List a URL" },
      { name: "url_tools", description: "listURL helpers listURL listURL" },
    );
    expect(namesOf(createSearchIndex(entries).search("listURL", 5))).toEqual([
      "listURL",
      "listUrl",
      "url_tools",
    ]);
    // listUrl sorts after listURL by id, yet its exact spelling puts it first.
    expect(namesOf(createSearchIndex(entries).search("listUrl", 5))).toEqual([
      "listUrl",
      "listURL",
      "url_tools",
    ]);
    // No exact spelling for "listurl": both case variants tie on score and fall back to id order.
    expect(namesOf(createSearchIndex(entries).search("listurl", 5))).toEqual([
      "listURL",
      "listUrl",
      "url_tools",
    ]);
  });

  it("matches ids case-insensitively too", () => {
    const entries = entriesOf(
      { name: "forecast", description: "Weather" },
      { name: "other", description: "forecast" },
    );
    expect(namesOf(createSearchIndex(entries).search("NATIVE:TEST:FORECAST", 5))).toEqual([
      "forecast",
      "other",
    ]);
  });

  it("returns an exact name that tokenises to nothing first", () => {
    const entries = entriesOf(
      { name: "do", description: "Do it" },
      { name: "todo", description: "Do the todo list" },
    );
    expect(namesOf(createSearchIndex(entries).search("do", 5))).toEqual(["do"]);
    expect(namesOf(createSearchIndex(entries).search(" do ", 5))).toEqual(["do"]);
  });

  it("orders equal scores by id (code units), whatever the input order", () => {
    const tools = [
      { name: "b_tool", description: "alpha" },
      { name: "B_tool", description: "alpha" },
      { name: "a_tool", description: "alpha" },
    ];
    const expected = ["B_tool", "a_tool", "b_tool"];
    expect(namesOf(createSearchIndex(entriesOf(...tools)).search("alpha", 5))).toEqual(expected);
    expect(namesOf(createSearchIndex(entriesOf(...tools.reverse())).search("alpha", 5))).toEqual(expected);
  });

  it("orders exact-name twins by score, then id", () => {
    const entries = entriesOf(
      { name: "read", description: "nothing relevant", origin: { kind: "plugin", owner: "a" } },
      {
        name: "read",
        description: "read files, read anything, read",
        origin: { kind: "plugin", owner: "b" },
      },
      { name: "read", description: "nothing relevant", origin: { kind: "plugin", owner: "c" } },
    );
    const ranked = createSearchIndex(entries).search("read", 2);
    expect(ranked.map((entry) => entry.id)).toEqual(["native:b:read", "native:a:read"]);
  });

  it("is deterministic across calls and fresh indexes", () => {
    const first = search("open a new issue");
    expect(search("open a new issue")).toEqual(first);
    expect(namesOf(createSearchIndex(catalog).search("open a new issue", 10))).toEqual(first);
    expect(first[0]).toBe("create_issue");
  });

  it("scores each sentence of a multi-sentence query as its own intent", () => {
    const entries = entriesOf(
      { name: "get_weather", description: "Weather forecast for a city" },
      { name: "weather_history", description: "Historical weather data for a city and a date" },
      { name: "weather_map", description: "Weather map for a city region" },
      { name: "book_flight", description: "Book a flight" },
    );
    const ranked = namesOf(
      createSearchIndex(entries).search(
        "Get the weather forecast, history and map for the city. Book a flight.",
        2,
      ),
    );
    expect(ranked).toContain("book_flight");
  });
});

describe("createSearchIndex: hostile input", () => {
  it("survives huge queries, huge texts and odd characters", () => {
    const entries = entriesOf(
      { name: "x".repeat(20_000), description: "huge name" },
      { name: "emoji_tool", label: "\ud83d\ude00".repeat(5000), description: "line\nbreak\u0000nul \ud800" },
    );
    const huge = createSearchIndex(entries);
    expect(namesOf(huge.search("huge", 5))).toEqual(["x".repeat(20_000)]);
    expect(huge.search("emoji ".repeat(50_000), 5)).toHaveLength(1);
    expect(huge.search("\ud800\udfff\u0000", 5)).toEqual([]);
    expect(huge.search("x".repeat(20_000), 1)).toHaveLength(1);
  });

  it("treats names such as __proto__ and constructor as plain text", () => {
    const entries = entriesOf(
      { name: "__proto__", description: "prototype pollution probe" },
      { name: "constructor", description: "builds things" },
      { name: "hasOwnProperty", description: "toString valueOf" },
    );
    const odd = createSearchIndex(entries);
    expect(namesOf(odd.search("__proto__", 5))).toEqual(["__proto__"]);
    expect(namesOf(odd.search("constructor", 5))).toEqual(["constructor"]);
    expect(namesOf(odd.search("toString valueOf", 5))).toEqual(["hasOwnProperty"]);
    expect(namesOf(odd.search("proto", 5))).toEqual(["__proto__"]);
  });

  it("returns entries as given (same objects)", () => {
    const entry = entryOf({ name: "solo", description: "only one" });
    expect(createSearchIndex([entry]).search("solo", 1)[0]).toBe(entry);
  });
});

describe("createSearchIndex: synonym lexicon", () => {
  it("finds the tool named in the catalog's words: `tell the channel` ranks post_message before list_channels", () => {
    const chat = createSearchIndex(
      entriesOf(
        { name: "list_channels", description: "List the channels of the workspace" },
        { name: "post_message", description: "Post a new message to a channel" },
        { name: "archive_channel", description: "Archive a channel" },
      ),
    );
    expect(namesOf(chat.search("tell the ops channel the deploy is done", 3))[0]).toBe("post_message");
  });

  it("ranks a match through a synonym in the literal tier, above an expansion-only match", () => {
    // `appointment` is a synonym of `event`; `remind` only expands to schedule and cron, which schedule_cron
    // matches twice over (it would score higher if synonyms were expansions).
    const tools = createSearchIndex(
      entriesOf(
        { name: "schedule_cron", description: "Schedule a cron job on a cron schedule" },
        { name: "create_event", description: "Create a calendar event" },
      ),
    );
    expect(namesOf(tools.search("remind me about the appointment", 2))).toEqual([
      "create_event",
      "schedule_cron",
    ]);
  });
});
