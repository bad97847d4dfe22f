import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createTestRuntime, echoTool } from "./controls.test-support.js";
import { runToolSearch, searchCandidates } from "./run-tool-search.js";
import type { BatchSearchResponse, SearchCandidate, SingleSearchDetails } from "./types.js";

const longDescription = `Get the daily weather forecast for a city.\n\nIncludes highs and lows. ${"Detail. ".repeat(40)}`;
const tools = [
  echoTool("get_forecast", {
    origin: { kind: "plugin", owner: "weather" },
    description: longDescription,
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  }),
  echoTool("create_event", {
    origin: { kind: "mcp", owner: "calendar" },
    description: "Create a calendar event.",
  }),
  echoTool("read", { description: "Read a file." }),
  echoTool("write", { description: "Write a file." }),
  ...Array.from({ length: 30 }, (_, index) =>
    echoTool(`note_${String(index).padStart(2, "0")}`, { description: "Stores a note about the weather." }),
  ),
];

function errorOf(run: () => unknown): { code: string; message: string } | undefined {
  try {
    run();
  } catch (error) {
    if (isToolsiftError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}

describe("runToolSearch: single query", () => {
  it("returns the candidate array itself, with full descriptions, and counts one search", () => {
    const runtime = createTestRuntime(tools);
    const result = runToolSearch(runtime, { query: "weather forecast", limit: 1 }) as SearchCandidate[];
    expect(result).toEqual([
      {
        id: "native:weather:get_forecast",
        source: "native",
        owner: "weather",
        name: "get_forecast",
        description: longDescription,
        input: "{ city: string }",
      },
    ]);
    expect(runtime.counts.search).toBe(1);
    expect(runtime.searches).toEqual([{ query: "weather forecast", limit: 1 }]);
  });

  it("applies the default limit and caps large ones", () => {
    const runtime = createTestRuntime(tools, { searchDefaultLimit: 3, maxSearchLimit: 7 });
    expect(runToolSearch(runtime, { query: "note" })).toHaveLength(3);
    expect(runToolSearch(runtime, { query: "note", limit: 1_000 })).toHaveLength(7);
    expect(runtime.searches.map((search) => search.limit)).toEqual([3, 7]);
  });

  it("says input unknown for an MCP tool", () => {
    const runtime = createTestRuntime(tools);
    const [candidate] = runToolSearch(runtime, { query: "mcp:calendar:create_event" }) as SearchCandidate[];
    expect(candidate).toEqual({
      id: "mcp:calendar:create_event",
      source: "mcp",
      owner: "calendar",
      name: "create_event",
      description: "Create a calendar event.",
      input: "unknown",
      mcp: { server: "calendar", tool: "create_event" },
    });
  });

  it("answers a blank query with [] without searching", () => {
    const runtime = createTestRuntime(tools);
    expect(runToolSearch(runtime, { query: "   " })).toEqual([]);
    expect(runtime.searches).toEqual([]);
    expect(runtime.counts.search).toBe(1);
  });

  it("returns nothing for a query with no usable word", () => {
    const runtime = createTestRuntime(tools);
    const result = runToolSearch(runtime, { query: "the of and" }) as SingleSearchDetails;
    expect([...result]).toEqual([]);
    expect(result.noMatch?.unmatchedWords).toEqual([]);
    expect(result.noMatch?.hint).toMatch(/no word a tool uses/);
  });
});

describe("runToolSearch: batch", () => {
  it("answers in request order, the scalar query first, counting one search per query", () => {
    const runtime = createTestRuntime(tools);
    const response = runToolSearch(runtime, {
      query: "read",
      limit: 1,
      queries: [{ query: "write", limit: 1 }, { query: "calendar event", limit: 2 }, { query: "write" }],
    }) as BatchSearchResponse;
    expect(response.results.map((group) => group.query)).toEqual([
      "read",
      "write",
      "calendar event",
      "write",
    ]);
    expect(response.results[0]?.candidates.map((candidate) => candidate.id)).toEqual(["native:core:read"]);
    expect(response.results[1]?.candidates.map((candidate) => candidate.id)).toEqual(["native:core:write"]);
    expect(response.results[2]?.candidates[0]?.id).toBe("mcp:calendar:create_event");
    expect(runtime.searches).toEqual([
      { query: "read", limit: 1 },
      { query: "write", limit: 1 },
      { query: "calendar event", limit: 2 },
      { query: "write", limit: 5 },
    ]);
    expect(runtime.counts.search).toBe(4);
    expect(response).not.toHaveProperty("truncated");
  });

  it("compacts descriptions in a batch", () => {
    const runtime = createTestRuntime(tools);
    const response = runToolSearch(runtime, {
      queries: [{ query: "get_forecast", limit: 1 }],
    }) as BatchSearchResponse;
    const description = response.results[0]?.candidates[0]?.description ?? "";
    expect(description).toHaveLength(180);
    expect(description).not.toMatch(/\n|\s{2}/);
    expect(description.endsWith("...")).toBe(true);
  });

  it("keeps the whole response within 4,000 characters and marks what was cut", () => {
    const runtime = createTestRuntime(tools, { maxSearchLimit: 25 });
    const response = runToolSearch(runtime, {
      queries: [
        { query: "weather note", limit: 25 },
        { query: "note", limit: 25 },
      ],
    }) as BatchSearchResponse;
    expect(JSON.stringify(response).length).toBeLessThanOrEqual(4_000);
    expect(response.truncated).toBe(true);
    expect(response.results.every((group) => group.truncated === true)).toBe(true);
  });

  it("runs nothing and counts nothing for an invalid batch", () => {
    const runtime = createTestRuntime(tools);
    const failure = errorOf(() =>
      runToolSearch(runtime, { queries: [{ query: "read" }, { query: "write" }, { query: "x", limit: -1 }] }),
    );
    expect(failure).toEqual({
      code: "INVALID_REQUEST",
      message: "queries[2].limit must be a positive integer.",
    });
    expect(runtime.searches).toEqual([]);
    expect(runtime.counts.search).toBe(0);
  });

  it("fails closed when the catalog is closed", () => {
    const runtime = createTestRuntime(tools);
    runtime.close();
    expect(errorOf(() => runToolSearch(runtime, { query: "read" }))).toEqual({
      code: "CATALOG_CLOSED",
      message: "Tool Search catalog is unavailable for this run.",
    });
    expect(runtime.counts.search).toBe(0);
  });
});

describe("searchCandidates", () => {
  it("uses the single form's ranking and limit rules", () => {
    const runtime = createTestRuntime(tools, { searchDefaultLimit: 2, maxSearchLimit: 4 });
    expect(searchCandidates(runtime, "read")[0]?.id).toBe("native:core:read");
    expect(searchCandidates(runtime, "note")).toHaveLength(2);
    expect(searchCandidates(runtime, "note", 100)).toHaveLength(4);
    expect(searchCandidates(runtime, "note", null)).toHaveLength(2);
    expect(searchCandidates(runtime, "  ")).toEqual([]);
    expect(searchCandidates(runtime, "get_forecast")[0]?.description).toBe(longDescription);
    expect(runtime.counts.search).toBe(6);
  });

  it("throws the spec's messages", () => {
    const runtime = createTestRuntime(tools);
    expect(errorOf(() => searchCandidates(runtime, "note", 0))).toEqual({
      code: "INVALID_REQUEST",
      message: "limit must be a positive integer.",
    });
    expect(errorOf(() => searchCandidates(runtime, 5 as unknown as string))).toEqual({
      code: "INVALID_REQUEST",
      message: "query must be a string.",
    });
    expect(runtime.counts.search).toBe(0);
  });
});
