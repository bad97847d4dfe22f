import MiniSearch from "minisearch";
import {
  buildCatalog,
  type CatalogEntry,
  type ToolDefinition,
  type ToolResult,
} from "../src/core/catalog/index.js";
import { createSearchIndex } from "../src/core/search/index.js";
import { isEntryPoint } from "./entry-point.js";
import {
  generateModelHub,
  HOLDOUT_SEED,
  type HubModel,
  type HubQuery,
  MORE_TUNING_SEEDS,
  TUNING_SEED,
} from "./model-hub-catalog.js";
import { createPlainBm25 } from "./plain-bm25.js";
import { writeResults } from "./write-results.js";

/** Results each engine returns per query. */
const RESULT_DEPTH = 20;
/** The MCP server the models are listed on (a hub's MCP server exposing models as tools). */
const HUB_SERVER = "hub";

type Engine = { name: string; build(entries: readonly CatalogEntry[]): (query: string) => string[] };
type Row = {
  /** `model-hub` (tuning seed), `model-hub-more` (the mean over the more tuning seeds) or `model-hub-holdout`. */
  set: string;
  engine: string;
  /** Requests of the set (of each set, for a mean). */
  queries: number;
  /** Share of a request's models found in the first 5, averaged over requests. */
  recallAt5: number;
  /** Reciprocal rank of the first model that serves the request. */
  mrr: number;
  /** Requests with no serving model in the first 20. */
  missAt20: number;
};

const engines: Engine[] = [
  {
    name: "toolsift",
    build(entries) {
      const index = createSearchIndex(entries);
      return (query) => index.search(query, RESULT_DEPTH).map((entry) => entry.name);
    },
  },
  {
    name: "plain BM25",
    build(entries) {
      const index = createPlainBm25(entries);
      return (query) => index.search(query, RESULT_DEPTH).map((entry) => entry.name);
    },
  },
  {
    name: "MiniSearch",
    build(entries) {
      const index = new MiniSearch<{ id: number; name: string; description: string }>({
        fields: ["name", "description"],
      });
      index.addAll(entries.map((entry, id) => ({ id, name: entry.name, description: entry.description })));
      return (query) =>
        index
          .search(query)
          .slice(0, RESULT_DEPTH)
          .map((hit) => entries[hit.id as number]!.name);
    },
  },
];

/** The generated models as MCP tools of one hub server (`mcp:hub:<org>/<model>`). */
export function modelHubTools(models: readonly HubModel[]): ToolDefinition[] {
  const result: ToolResult = { content: [{ type: "text", text: "done." }] };
  return models.map((model) => ({
    name: model.name,
    description: model.description,
    parameters: { type: "object", properties: { inputs: { type: "string" } } },
    origin: { kind: "mcp", owner: HUB_SERVER },
    execute: async () => result,
  }));
}

/** Scores ranked names against each request's models. */
export function scoreHub(
  set: string,
  engine: string,
  results: ReadonlyArray<{ query: HubQuery; names: readonly string[] }>,
): Row {
  let recallAt5 = 0;
  let reciprocalRanks = 0;
  let misses = 0;
  for (const { query, names } of results) {
    const gold = new Set(query.gold);
    recallAt5 += names.slice(0, 5).filter((name) => gold.has(name)).length / gold.size;
    const first = names.findIndex((name) => gold.has(name));
    if (first >= 0) reciprocalRanks += 1 / (first + 1);
    else misses += 1;
  }
  const count = Math.max(1, results.length);
  return {
    set,
    engine,
    queries: results.length,
    recallAt5: recallAt5 / count,
    mrr: reciprocalRanks / count,
    missAt20: misses / count,
  };
}

/**
 * Runs toolsift, plain BM25 and MiniSearch over the generated model-hub sets (the tuning set, the mean of the
 * more tuning sets, the held-back set); writes `bench/results/model-hub.json`.
 */
export function run(): Row[] {
  const rows: Row[] = [];
  for (const [set, seeds] of [
    ["model-hub", [TUNING_SEED]],
    ["model-hub-more", MORE_TUNING_SEEDS],
    ["model-hub-holdout", [HOLDOUT_SEED]],
  ] as const) {
    const perSeed = seeds.map((seed) => runSeed(set, seed));
    const setRows = engines.map((_, at) => meanRow(perSeed.map(({ rows }) => rows[at]!)));
    const label = seeds.length === 1 ? `seed ${seeds[0]}` : `the mean of seeds ${seeds.join(", ")}`;
    const { models } = perSeed[0]!;
    console.log(`\n${set}: ${models} models, ${setRows[0]!.queries} requests a set (${label})\n`);
    console.table(
      setRows.map((row) => ({
        engine: row.engine,
        "R@5 %": (row.recallAt5 * 100).toFixed(1),
        MRR: row.mrr.toFixed(4),
        "miss@20 %": (row.missAt20 * 100).toFixed(1),
      })),
    );
    rows.push(...setRows);
  }
  writeResults("model-hub", rows);
  return rows;
}

/** Every engine's row on the set generated from `seed`, in engine order, and the set's model count. */
function runSeed(set: string, seed: number): { rows: Row[]; models: number } {
  const { models, queries } = generateModelHub(seed);
  const { snapshot } = buildCatalog(modelHubTools(models));
  const rows = engines.map((engine) => {
    const search = engine.build(snapshot.entries);
    return scoreHub(
      set,
      engine.name,
      queries.map((query) => ({ query, names: search(query.query) })),
    );
  });
  return { rows, models: snapshot.entries.length };
}

/** The mean of one engine's rows over several sets (the row itself for one set). */
function meanRow(rows: readonly Row[]): Row {
  const mean = (pick: (row: Row) => number) => rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
  return {
    ...rows[0]!,
    recallAt5: mean((row) => row.recallAt5),
    mrr: mean((row) => row.mrr),
    missAt20: mean((row) => row.missAt20),
  };
}

if (isEntryPoint(import.meta.url)) run();
