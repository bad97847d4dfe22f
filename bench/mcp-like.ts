import { readFileSync } from "node:fs";
import MiniSearch from "minisearch";
import {
  buildCatalog,
  type CatalogEntry,
  type ToolDefinition,
  type ToolResult,
} from "../src/core/catalog/index.js";
import { createSearchIndex, entryFields } from "../src/core/search/index.js";
import { isEntryPoint } from "./entry-point.js";
import { MCP_LIKE_DIRECTORY, MCP_LIKE_HOLDOUT_DIRECTORY, type McpLikeTool } from "./mcp-like-catalog.js";
import { createPlainBm25 } from "./plain-bm25.js";
import { writeResults } from "./write-results.js";

/** Results each engine returns per query. */
const RESULT_DEPTH = 20;

/**
 * One labelled request. Each intent lists the tools that would serve it (`<server>:<tool>`), best first; an
 * intent counts as found at depth k when any of its tools is among the first k results.
 */
export type McpLikeQuery = { id: string; query: string; intents: string[][] };

type Engine = { name: string; build(entries: readonly CatalogEntry[]): (query: string) => string[] };
type Subset = "all" | "single-intent" | "multi-intent";
type Row = {
  /** `mcp-like` (the check set) or `mcp-like-holdout` (the held-back set). */
  set: string;
  engine: string;
  subset: Subset;
  queries: number;
  /** Share of intents with a tool in the first 5 (first 8), averaged per query. */
  recallAt5: number;
  recallAt8: number;
  /** Reciprocal rank of the first result that serves any intent. */
  mrr: number;
  /** Share of queries with every intent served in the first 8. */
  allGoldInTop8: number;
  /** Intents served in the first 8, over all intents of the subset's queries (for multi-intent queries: "intents covered in top 8"). */
  intentsCoveredAt8: number;
};

const engines: Engine[] = [
  {
    name: "toolsift",
    build(entries) {
      const index = createSearchIndex(entries);
      return (query) => index.search(query, RESULT_DEPTH).map((entry) => entry.id);
    },
  },
  {
    name: "plain BM25",
    build(entries) {
      const index = createPlainBm25(entries);
      return (query) => index.search(query, RESULT_DEPTH).map((entry) => entry.id);
    },
  },
  {
    name: "MiniSearch",
    build(entries) {
      const index = new MiniSearch<{ id: number; name: string; description: string; meta: string }>({
        fields: ["name", "description", "meta"],
      });
      index.addAll(
        entries.map((entry, id) => ({
          id,
          name: entry.name,
          description: entry.description,
          meta: entryFields(entry)[3] ?? "",
        })),
      );
      return (query) =>
        index
          .search(query)
          .slice(0, RESULT_DEPTH)
          .map((hit) => entries[hit.id as number]!.id);
    },
  },
];

/** The two MCP-like sets: the check set and the held-back one, each a catalog and its labelled requests. */
const SETS: ReadonlyArray<{ name: string; directory: URL }> = [
  { name: "mcp-like", directory: MCP_LIKE_DIRECTORY },
  { name: "mcp-like-holdout", directory: MCP_LIKE_HOLDOUT_DIRECTORY },
];

/** A set's catalog as MCP tools (`mcp:<server>:<name>`): their schemas are not indexed, as in a gateway. */
export function loadMcpLikeTools(directory: URL = MCP_LIKE_DIRECTORY): ToolDefinition[] {
  const tools = JSON.parse(readFileSync(new URL("tools.json", directory), "utf8")) as McpLikeTool[];
  return tools.map((tool) => {
    const result: ToolResult = { content: [{ type: "text", text: `${tool.name} done.` }] };
    return {
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      origin: { kind: "mcp", owner: tool.server },
      execute: async () => result,
    };
  });
}

/** A set's hand-written labelled requests, gold tools as catalog ids. */
export function loadMcpLikeQueries(directory: URL = MCP_LIKE_DIRECTORY): McpLikeQuery[] {
  const queries = JSON.parse(readFileSync(new URL("queries.json", directory), "utf8")) as McpLikeQuery[];
  return queries.map((query) => ({
    ...query,
    intents: query.intents.map((tools) => tools.map((tool) => `mcp:${tool}`)),
  }));
}

/**
 * Runs the three engines over both MCP-like sets (the check set and the held-back one); prints a table per set
 * and writes `bench/results/mcp-like.json`.
 */
export function run(): Row[] {
  const rows: Row[] = [];
  for (const set of SETS) {
    const setRows = runSet(set.name, set.directory);
    rows.push(...setRows);
  }
  writeResults("mcp-like", rows);
  return rows;
}

function runSet(name: string, directory: URL): Row[] {
  const { snapshot } = buildCatalog(loadMcpLikeTools(directory));
  const queries = loadMcpLikeQueries(directory);
  const known = new Set(snapshot.entries.map((entry) => entry.id));
  for (const query of queries)
    for (const tool of query.intents.flat())
      if (!known.has(tool))
        throw new Error(`Query ${query.id} of ${name} names ${tool}, which is not in the catalog.`);
  const rows: Row[] = [];
  for (const engine of engines) {
    const search = engine.build(snapshot.entries);
    const ranked = queries.map((query) => search(query.query));
    for (const subset of ["all", "single-intent", "multi-intent"] as const) {
      const picked = queries.flatMap((query, position) =>
        subset === "all" || (subset === "multi-intent") === query.intents.length > 1
          ? [{ query, names: ranked[position]! }]
          : [],
      );
      rows.push({ set: name, ...score(engine.name, subset, picked) });
    }
  }
  const servers = new Set(snapshot.entries.map((entry) => entry.owner)).size;
  console.log(
    `\n${name}: ${snapshot.entries.length} tools on ${servers} servers, ${queries.length} queries\n`,
  );
  console.table(
    rows.map((row) => ({
      engine: row.engine,
      queries: `${row.subset} (${row.queries})`,
      "R@5 %": percent(row.recallAt5),
      "R@8 %": percent(row.recallAt8),
      MRR: row.mrr.toFixed(4),
      "all@8 %": percent(row.allGoldInTop8),
      "intents@8 %": percent(row.intentsCoveredAt8),
    })),
  );
  return rows;
}

/** Scores ranked ids against labelled intents; see `Row` for each figure. */
export function score(
  engine: string,
  subset: Subset,
  results: ReadonlyArray<{ query: McpLikeQuery; names: readonly string[] }>,
): Omit<Row, "set"> {
  let recallAt5 = 0;
  let recallAt8 = 0;
  let reciprocalRanks = 0;
  let allGold = 0;
  let intents = 0;
  let intentsCovered = 0;
  for (const { query, names } of results) {
    const served = (k: number) =>
      query.intents.filter((tools) => tools.some((tool) => names.slice(0, k).includes(tool))).length;
    recallAt5 += served(5) / query.intents.length;
    recallAt8 += served(8) / query.intents.length;
    if (served(8) === query.intents.length) allGold += 1;
    intents += query.intents.length;
    intentsCovered += served(8);
    const gold = new Set(query.intents.flat());
    const firstHit = names.findIndex((name) => gold.has(name));
    if (firstHit >= 0) reciprocalRanks += 1 / (firstHit + 1);
  }
  const count = Math.max(1, results.length);
  return {
    engine,
    subset,
    queries: results.length,
    recallAt5: recallAt5 / count,
    recallAt8: recallAt8 / count,
    mrr: reciprocalRanks / count,
    allGoldInTop8: allGold / count,
    intentsCoveredAt8: intentsCovered / Math.max(1, intents),
  };
}

function percent(value: number): string {
  return (value * 100).toFixed(1);
}

if (isEntryPoint(import.meta.url)) run();
