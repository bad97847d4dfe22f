import { performance } from "node:perf_hooks";
import MiniSearch from "minisearch";
import { buildCatalog, type CatalogEntry } from "../src/core/catalog/index.js";
import { createSearchIndex, entryFields } from "../src/core/search/index.js";
import { isEntryPoint } from "./entry-point.js";
import { createPlainBm25 } from "./plain-bm25.js";
import { loadSealQueries, loadSealTools, type SealQuery } from "./seal-tools.js";
import { writeChart } from "./svg-chart.js";
import { warmUp } from "./warm-up.js";
import { writeResults } from "./write-results.js";

/** How many results each engine returns per query (the default `maxSearchLimit`). */
const RESULT_DEPTH = 20;
/** Builds after the first one, whose median is reported as the build time. */
const REBUILDS = 3;

type Engine = { name: string; build(entries: readonly CatalogEntry[]): (query: string) => string[] };
type Row = {
  engine: string;
  recallAt1: number;
  recallAt5: number;
  recallAt8: number;
  allGoldInTop8: number;
  mrr: number;
  emptyRate: number;
  /** First build in the process (cold code). */
  firstBuildMs: number;
  /** Median of the rebuilds that follow. */
  buildMs: number;
  medianQueryMs: number;
  p99QueryMs: number;
};

const engines: Engine[] = [
  {
    name: "toolsift",
    build(entries) {
      const index = createSearchIndex(entries);
      index.search("warm up the postings", 1);
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
      const index = new MiniSearch<{ id: number; name: string; description: string; parameters: string }>({
        fields: ["name", "description", "parameters"],
      });
      index.addAll(
        entries.map((entry, id) => {
          const fields = entryFields(entry);
          return { id, name: entry.name, description: entry.description, parameters: fields[2] ?? "" };
        }),
      );
      return (query) =>
        index
          .search(query)
          .slice(0, RESULT_DEPTH)
          .map((hit) => entries[hit.id as number]!.name);
    },
  },
];

/** Runs every engine over the Seal-Tools queries of `split` in one process; prints and writes the quality table. */
export function run(split = "dev"): void {
  const { snapshot } = buildCatalog(loadSealTools());
  const queries = loadSealQueries(split);
  const rows = engines.map((engine) => measure(engine, snapshot.entries, queries));
  console.log(`Seal-Tools ${split}: ${snapshot.entries.length} tools, ${queries.length} queries\n`);
  console.table(
    rows.map((row) => ({
      engine: row.engine,
      "R@1 %": percent(row.recallAt1),
      "R@5 %": percent(row.recallAt5),
      "R@8 %": percent(row.recallAt8),
      "all@8 %": percent(row.allGoldInTop8),
      MRR: row.mrr.toFixed(4),
      "empty %": percent(row.emptyRate),
      "1st build ms": row.firstBuildMs.toFixed(1),
      "build ms": row.buildMs.toFixed(1),
      "p50 ms": row.medianQueryMs.toFixed(4),
      "p99 ms": row.p99QueryMs.toFixed(4),
    })),
  );
  writeResults(`quality-${split}`, rows);
  const metrics: Array<[string, (row: Row) => number]> = [
    ["Recall@1", (row) => row.recallAt1],
    ["Recall@5", (row) => row.recallAt5],
    ["Recall@8", (row) => row.recallAt8],
    ["all gold in top 8", (row) => row.allGoldInTop8],
    ["MRR", (row) => row.mrr],
  ];
  writeChart(`quality-${split}`, {
    title: `Search quality on Seal-Tools ${split} (${snapshot.entries.length.toLocaleString("en-US")} tools, ${queries.length} queries)`,
    subtitle: "toolsift vs plain BM25 vs MiniSearch, same process; higher is better",
    panels: [
      {
        categories: metrics.map(([name]) => name),
        series: rows.map((row) => ({ name: row.engine, values: metrics.map(([, pick]) => 100 * pick(row)) })),
        yLabel: "percent (MRR × 100)",
        xLabel: "metric",
        max: 100,
        format: (value) => value.toFixed(1),
      },
    ],
  });
}

function measure(engine: Engine, entries: readonly CatalogEntry[], queries: readonly SealQuery[]): Row {
  const builds: number[] = [];
  let search = (_query: string): string[] => [];
  for (let round = 0; round <= REBUILDS; round += 1) {
    const buildStart = performance.now();
    search = engine.build(entries);
    builds.push(performance.now() - buildStart);
  }
  const firstBuildMs = builds[0]!;
  const buildMs = quantile(
    builds.slice(1).sort((left, right) => left - right),
    0.5,
  );
  warmUp(
    search,
    queries.map((labelled) => labelled.query),
  );
  const times: number[] = [];
  let recallAt1 = 0;
  let recallAt5 = 0;
  let recallAt8 = 0;
  let allGold = 0;
  let reciprocalRanks = 0;
  let empty = 0;
  for (const { query, gold } of queries) {
    const start = performance.now();
    const names = search(query);
    times.push(performance.now() - start);
    const recall = (k: number) =>
      gold.filter((name) => names.slice(0, k).includes(name)).length / gold.length;
    recallAt1 += recall(1);
    recallAt5 += recall(5);
    recallAt8 += recall(8);
    if (recall(8) === 1) allGold += 1;
    const firstHit = names.findIndex((name) => gold.includes(name));
    if (firstHit >= 0) reciprocalRanks += 1 / (firstHit + 1);
    if (names.length === 0) empty += 1;
  }
  times.sort((left, right) => left - right);
  const count = queries.length;
  return {
    engine: engine.name,
    recallAt1: recallAt1 / count,
    recallAt5: recallAt5 / count,
    recallAt8: recallAt8 / count,
    allGoldInTop8: allGold / count,
    mrr: reciprocalRanks / count,
    emptyRate: empty / count,
    firstBuildMs,
    buildMs,
    medianQueryMs: quantile(times, 0.5),
    p99QueryMs: quantile(times, 0.99),
  };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function percent(value: number): string {
  return (value * 100).toFixed(1);
}

if (isEntryPoint(import.meta.url)) run(process.argv[2]);
