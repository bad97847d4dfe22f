import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { parseSearchRequest, type SearchPlan, singleLimit } from "./search-request.js";

const limits = { searchDefaultLimit: 5, maxSearchLimit: 20 };

function parse(request: unknown): SearchPlan {
  return parseSearchRequest(request, limits);
}

function failure(request: unknown): { code: string; message: string } | undefined {
  try {
    parse(request);
  } catch (error) {
    if (isToolsiftError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}

function batchOf(count: number, limit?: number): Array<{ query: string; limit?: number }> {
  return Array.from({ length: count }, (_, index) =>
    limit === undefined ? { query: `q${index}` } : { query: `q${index}`, limit },
  );
}

describe("parseSearchRequest: request rules", () => {
  it.each([
    [{}, "provide query or queries."],
    [{ query: null, queries: null, limit: null }, "provide query or queries."],
    [undefined, "provide query or queries."],
    ["find a tool", "provide query or queries."],
    [[{ query: "x" }], "provide query or queries."],
    [{ queries: "weather" }, "queries must be a non-empty array."],
    [{ queries: { query: "weather" } }, "queries must be a non-empty array."],
    [{ queries: [] }, "queries must be a non-empty array."],
    [{ query: "   ", queries: [] }, "queries must be a non-empty array."],
    [{ query: 42 }, "query must be a string."],
    [{ query: ["weather"] }, "query must be a string."],
    [{ query: "weather", limit: 0 }, "limit must be a positive integer."],
    [{ query: "weather", limit: -1 }, "limit must be a positive integer."],
    [{ query: "weather", limit: 1.5 }, "limit must be a positive integer."],
    [{ query: "weather", limit: "0" }, "limit must be a positive integer."],
    [{ query: "weather", limit: "1.5" }, "limit must be a positive integer."],
    [{ query: "weather", limit: "five" }, "limit must be a positive integer."],
    [{ query: "weather", limit: "" }, "limit must be a positive integer."],
    [{ query: "weather", limit: Number.POSITIVE_INFINITY }, "limit must be a positive integer."],
    [{ query: "weather", limit: Number.NaN }, "limit must be a positive integer."],
    [{ queries: [{ query: "a" }], limit: 3 }, "set limit on each batch query, not on the batch request."],
    [
      { query: "  ", queries: [{ query: "a" }], limit: 3 },
      "set limit on each batch query, not on the batch request.",
    ],
    [{ queries: [{ query: "a" }, 7] }, "queries[1] must be an object."],
    [{ queries: [{ query: "a" }, "  "] }, "queries[1].query must be a non-empty string."],
    [{ queries: [null] }, "queries[0] must be an object."],
    [{ queries: [["a"]] }, "queries[0] must be an object."],
    [{ queries: [{ query: "a" }, {}] }, "queries[1].query must be a non-empty string."],
    [{ queries: [{ query: "" }] }, "queries[0].query must be a non-empty string."],
    [{ queries: [{ query: " \n " }] }, "queries[0].query must be a non-empty string."],
    [{ queries: [{ query: 7 }] }, "queries[0].query must be a non-empty string."],
    [{ queries: [{ query: "a", limit: 0 }] }, "queries[0].limit must be a positive integer."],
    [
      { queries: [{ query: "a" }, { query: "b", limit: 2.5 }] },
      "queries[1].limit must be a positive integer.",
    ],
    [{ queries: [{ query: "a", limit: "-3" }] }, "queries[0].limit must be a positive integer."],
  ])("rejects %j with the spec's message", (request, message) => {
    expect(failure(request)).toEqual({ code: "INVALID_REQUEST", message });
  });

  it("treats null as absent", () => {
    expect(parse({ query: "weather", limit: null, queries: null })).toEqual({
      kind: "single",
      query: { query: "weather", limit: 5 },
    });
    expect(parse({ query: null, queries: [{ query: "a", limit: null }] })).toEqual({
      kind: "batch",
      queries: [{ query: "a", limit: 5 }],
    });
  });

  it("runs a non-blank query with an empty or absent batch as a single search", () => {
    expect(parse({ query: "weather", queries: [] })).toEqual({
      kind: "single",
      query: { query: "weather", limit: 5 },
    });
    expect(parse({ query: "weather", limit: 2 })).toEqual({
      kind: "single",
      query: { query: "weather", limit: 2 },
    });
  });

  it("reads a batch item given as a bare string as { query } (weak models)", () => {
    expect(parse({ queries: ["send email", { query: "list files", limit: 2 }] })).toEqual({
      kind: "batch",
      queries: [
        { query: "send email", limit: 5 },
        { query: "list files", limit: 2 },
      ],
    });
  });

  it("reads a limit written as an integer string ('3') as that integer, capped as usual", () => {
    expect(parse({ query: "weather", limit: "3" })).toEqual({
      kind: "single",
      query: { query: "weather", limit: 3 },
    });
    expect(parse({ query: "weather", limit: " 500 " })).toEqual({
      kind: "single",
      query: { query: "weather", limit: 20 },
    });
    expect(parse({ queries: [{ query: "a", limit: "2" }] })).toEqual({
      kind: "batch",
      queries: [{ query: "a", limit: 2 }],
    });
  });

  it("answers a blank scalar query without a batch with no search at all", () => {
    expect(parse({ query: "" })).toEqual({ kind: "blank" });
    expect(parse({ query: " \t\n" })).toEqual({ kind: "blank" });
  });

  it("caps limits at maxSearchLimit and defaults them to searchDefaultLimit", () => {
    expect(parse({ query: "weather", limit: 500 })).toEqual({
      kind: "single",
      query: { query: "weather", limit: 20 },
    });
    expect(parse({ queries: [{ query: "a", limit: 99 }, { query: "b" }] })).toEqual({
      kind: "batch",
      queries: [
        { query: "a", limit: 20 },
        { query: "b", limit: 5 },
      ],
    });
    expect(parseSearchRequest({ query: "a" }, { searchDefaultLimit: 30, maxSearchLimit: 10 })).toEqual({
      kind: "single",
      query: { query: "a", limit: 10 },
    });
  });

  it("runs a non-blank scalar query first, with the top-level limit, as one of the batch's queries", () => {
    expect(parse({ query: "first", limit: 2, queries: [{ query: "second", limit: 3 }] })).toEqual({
      kind: "batch",
      queries: [
        { query: "first", limit: 2 },
        { query: "second", limit: 3 },
      ],
    });
    expect(failure({ query: "first", limit: 0, queries: [{ query: "x" }] })?.message).toBe(
      "limit must be a positive integer.",
    );
  });

  it("keeps repeated query texts, each with its own limit", () => {
    expect(
      parse({
        queries: [
          { query: "same", limit: 1 },
          { query: "same", limit: 4 },
        ],
      }),
    ).toEqual({
      kind: "batch",
      queries: [
        { query: "same", limit: 1 },
        { query: "same", limit: 4 },
      ],
    });
  });

  it("validates every item before accepting any (a bad last item fails the whole request)", () => {
    expect(failure({ queries: [{ query: "fine" }, { query: "fine too" }, { query: "" }] })?.message).toBe(
      "queries[2].query must be a non-empty string.",
    );
  });

  it("counts query length in graphemes, not code units", () => {
    const family = "👨‍👩‍👧"; // one grapheme, 8 code units, 18 UTF-8 bytes
    // 100 graphemes (800 code units) pass the item rule; only the byte budget refuses them.
    expect(failure({ queries: [{ query: family.repeat(100) }] })?.message).toMatch(
      /^a batch allows at most 512 bytes/,
    );
    expect(failure({ queries: [{ query: "a".repeat(512) }] })?.message).toMatch(
      /^a batch allows at most 512 bytes/,
    );
    expect(failure({ queries: [{ query: "a".repeat(513) }] })?.message).toBe(
      "queries[0].query must not exceed 512 characters.",
    );
    expect(failure({ queries: [{ query: family.repeat(513) }] })?.message).toBe(
      "queries[0].query must not exceed 512 characters.",
    );
  });
});

describe("parseSearchRequest: budgets", () => {
  it("allows 16 queries and refuses 17, naming the budget and the figure", () => {
    expect(parse({ queries: batchOf(16, 1) }).kind).toBe("batch");
    expect(failure({ queries: batchOf(17, 1) })?.message).toMatch(
      /^a batch allows at most 16 queries; got 17\./,
    );
    expect(failure({ query: "scalar", limit: 1, queries: batchOf(16, 1) })?.message).toMatch(
      /^a batch allows at most 16 queries; got 17\./,
    );
  });

  it("allows 50 total results and refuses 51", () => {
    const fifty = [...batchOf(2, 20), { query: "c", limit: 10 }];
    expect(parse({ queries: fifty }).kind).toBe("batch");
    const fiftyOne = [...batchOf(2, 20), { query: "c", limit: 11 }];
    expect(failure({ queries: fiftyOne })?.message).toMatch(
      /^a batch allows at most 50 results in total .*; got 51\./,
    );
  });

  it("counts omitted limits as the default and capped limits at the cap", () => {
    // 10 default (5 each) = 50: fits; 11 = 55: refused.
    expect(parse({ queries: batchOf(10) }).kind).toBe("batch");
    expect(failure({ queries: batchOf(11) })?.message).toMatch(/; got 55\./);
    // 999 is capped at 20: 20 + 20 + 10 = 50 fits.
    expect(
      parse({
        queries: [
          { query: "a", limit: 999 },
          { query: "b", limit: 999 },
          { query: "c", limit: 10 },
        ],
      }).kind,
    ).toBe("batch");
  });

  it("allows 512 UTF-8 bytes of JSON query text and refuses 513, multi-byte characters included", () => {
    // JSON.stringify(["<q>"]) adds 4 bytes; "é" is 2 bytes in UTF-8.
    const fits = "é".repeat(254); // 508 + 4 = 512
    expect(Buffer.byteLength(JSON.stringify([fits]))).toBe(512);
    expect(parse({ queries: [{ query: fits, limit: 1 }] }).kind).toBe("batch");
    const over = `${"é".repeat(254)}a`; // 509 + 4 = 513
    expect(failure({ queries: [{ query: over, limit: 1 }] })?.message).toMatch(
      /^a batch allows at most 512 bytes of query text .*; got 513\./,
    );
    // Two queries: ["x","y"] costs 4 + 2 + 1 bytes around the texts.
    const left = "€".repeat(100); // 300 bytes
    const right = "a".repeat(505 - 300); // 205 bytes: 300 + 205 + 7 = 512
    expect(
      parse({
        queries: [
          { query: left, limit: 1 },
          { query: right, limit: 1 },
        ],
      }).kind,
    ).toBe("batch");
    expect(
      failure({
        queries: [
          { query: left, limit: 1 },
          { query: `${right}b`, limit: 1 },
        ],
      })?.message,
    ).toMatch(/; got 513\./);
  });

  it("checks budgets in order: count, then results, then bytes", () => {
    const many = Array.from({ length: 17 }, () => ({ query: "x".repeat(100), limit: 20 }));
    expect(failure({ queries: many })?.message).toMatch(/at most 16 queries/);
    const heavy = Array.from({ length: 3 }, () => ({ query: "x".repeat(300), limit: 20 }));
    expect(failure({ queries: heavy })?.message).toMatch(/at most 50 results/);
  });

  it("survives hostile requests with a clear error", () => {
    const throwing = {
      get query(): never {
        throw new Error("boom");
      },
    };
    expect(failure(throwing)?.message).toBe("provide query or queries.");
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(failure({ queries: proxy })?.message).toBe("queries must be a non-empty array.");
    const longArray = new Proxy([], {
      get: (target, key) => (key === "length" ? 1e9 : Reflect.get(target, key)),
    });
    expect(failure({ queries: longArray })?.message).toMatch(/at most 16 queries; got 1000000000\./);
  });
});

describe("singleLimit", () => {
  it("applies the single form's rules", () => {
    expect(singleLimit(undefined, limits)).toBe(5);
    expect(singleLimit(null, limits)).toBe(5);
    expect(singleLimit(3, limits)).toBe(3);
    expect(singleLimit(300, limits)).toBe(20);
    expect(() => singleLimit(0, limits)).toThrow("limit must be a positive integer.");
  });
});
