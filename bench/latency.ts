import { performance } from "node:perf_hooks";
import MiniSearch from "minisearch";
import { buildCatalog, type CatalogEntry, type ToolDefinition } from "../src/core/catalog/index.js";
import { buildPostings, createSearchIndex, createVocabulary, entryFields } from "../src/core/search/index.js";
import { collectGarbage } from "./collect-garbage.js";
import { isEntryPoint } from "./entry-point.js";
import { loadSealQueries, loadSealTools } from "./seal-tools.js";
import { compactNumber, type Panel, writeChart } from "./svg-chart.js";
import { syntheticQueries, syntheticTools } from "./synthetic-tools.js";
import { warmUp } from "./warm-up.js";
import { writeResults } from "./write-results.js";

/** Results asked per query (the default `searchDefaultLimit`). */
const LIMIT = 8;
/** MiniSearch is measured up to this catalog size (it is slow to build and query beyond). */
const MINISEARCH_MAX_TOOLS = 10_000;
/** toolsift builds per catalog (the first is reported apart; the best of the others is the build time). */
const BUILDS = 6;
/** Builds beyond `MINISEARCH_MAX_TOOLS` tools, where one build takes seconds. */
const LARGE_CATALOG_BUILDS = 3;

type Row = {
  catalog: string;
  engine: string;
  tools: number;
  /** The first build of this catalog in the process. */
  firstBuildMs: number;
  /** The best of the rebuilds (toolsift only; MiniSearch is built once). */
  buildMs: number;
  p50Ms: number;
  p99Ms: number;
  /** Heap and array buffers the built index keeps (postings, lookups, query buffers), after a full GC. */
  indexMb: number;
  /** toolsift: what the catalog's words take in the process-wide build vocabulary (shared by every index). */
  vocabularyMb?: number;
};

/** Index build time and query latency for toolsift (and MiniSearch up to 10,000 tools), side by side. */
export function run(): void {
  const sealQueries = loadSealQueries().map((query) => query.query);
  // Catalogs are made one at a time, so an earlier catalog's heap never weighs on a later measurement.
  const cases: Array<{ catalog: string; tools: () => ToolDefinition[]; queries: string[] }> = [
    { catalog: "seal-tools", tools: loadSealTools, queries: sealQueries },
    ...[1_000, 10_000, 100_000].map((size) => ({
      catalog: `synthetic ${size}`,
      tools: () => syntheticTools(size),
      queries: [...syntheticQueries(500), ...sealQueries.slice(0, 200)],
    })),
  ];
  const rows: Row[] = [];
  for (const { catalog, tools, queries } of cases) {
    const { entries } = buildCatalog(tools()).snapshot;
    rows.push(measureToolsift(catalog, entries, queries));
    if (entries.length <= MINISEARCH_MAX_TOOLS) rows.push(measureMiniSearch(catalog, entries, queries));
  }
  console.table(
    rows.map((row) => ({
      catalog: row.catalog,
      engine: row.engine,
      tools: row.tools,
      "1st build ms": row.firstBuildMs.toFixed(1),
      "build ms": row.buildMs.toFixed(1),
      "p50 ms": row.p50Ms.toFixed(4),
      "p99 ms": row.p99Ms.toFixed(4),
      "index MB": row.indexMb.toFixed(1),
      "MB per 10k tools": ((row.indexMb * 10_000) / row.tools).toFixed(1),
      "vocabulary MB": row.vocabularyMb?.toFixed(1) ?? "",
    })),
  );
  writeResults("latency", rows);
  writeLatencyChart(rows);
}

function writeLatencyChart(rows: readonly Row[]): void {
  const catalogs = [...new Set(rows.map((row) => row.catalog))];
  const categories = catalogs.map((catalog) => {
    const tools = rows.find((row) => row.catalog === catalog)!.tools.toLocaleString("en-US");
    return catalog === "seal-tools" ? `Seal-Tools (${tools})` : tools;
  });
  const panel = (heading: string, yLabel: string, pick: (row: Row) => number): Panel => ({
    heading,
    categories,
    series: ["toolsift", "MiniSearch"].map((engine) => ({
      name: engine,
      values: catalogs.map((catalog) => {
        const row = rows.find((candidate) => candidate.catalog === catalog && candidate.engine === engine);
        return row ? pick(row) : undefined;
      }),
    })),
    yLabel,
    xLabel: "tools in the catalog (MiniSearch up to 10,000)",
    log: true,
    format: compactNumber,
  });
  writeChart("latency", {
    title: "Search latency: toolsift vs MiniSearch",
    subtitle: "same process, same entries and queries; lower is better",
    panels: [
      panel("query p50", "p50 query latency, ms (log scale)", (row) => row.p50Ms),
      panel("index build", "index build, ms (log scale)", (row) => row.buildMs),
      panel("index memory", "heap + buffers kept by the index, MB (log scale)", (row) => row.indexMb),
    ],
  });
}

function measureToolsift(catalog: string, entries: readonly CatalogEntry[], queries: string[]): Row {
  const { builds, timings } = timeToolsift(entries, queries);
  // Measured once the timed indexes are out of reach (their frames are gone) and the vocabulary is warm.
  const indexMb = retainedMb(() => {
    const index = createSearchIndex(entries);
    index.search("warm up the postings", 1);
    return index;
  });
  const vocabularyMb = retainedMb(() => {
    const vocabulary = createVocabulary();
    buildPostings(entries, vocabulary);
    return vocabulary;
  });
  return {
    catalog,
    engine: "toolsift",
    tools: entries.length,
    firstBuildMs: builds[0]!,
    buildMs: Math.min(...builds.slice(1)),
    ...timings,
    indexMb,
    vocabularyMb,
  };
}

function timeToolsift(
  entries: readonly CatalogEntry[],
  queries: string[],
): { builds: number[]; timings: { p50Ms: number; p99Ms: number } } {
  const builds: number[] = [];
  let search = (_query: string): unknown => undefined;
  const rounds = entries.length > MINISEARCH_MAX_TOOLS ? LARGE_CATALOG_BUILDS : BUILDS;
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    const index = createSearchIndex(entries);
    index.search("warm up the postings", 1);
    builds.push(performance.now() - start);
    search = (query) => index.search(query, LIMIT);
  }
  return { builds, timings: latency(search, queries) };
}

function buildMiniSearch(entries: readonly CatalogEntry[]): MiniSearch {
  const index = new MiniSearch<{ id: number; name: string; description: string; parameters: string }>({
    fields: ["name", "description", "parameters"],
  });
  index.addAll(
    entries.map((entry, id) => ({
      id,
      name: entry.name,
      description: entry.description,
      parameters: entryFields(entry)[2] ?? "",
    })),
  );
  return index;
}

function measureMiniSearch(catalog: string, entries: readonly CatalogEntry[], queries: string[]): Row {
  const { buildMs, timings } = timeMiniSearch(entries, queries);
  return {
    catalog,
    engine: "MiniSearch",
    tools: entries.length,
    firstBuildMs: buildMs,
    buildMs,
    ...timings,
    indexMb: retainedMb(() => buildMiniSearch(entries)),
  };
}

function timeMiniSearch(
  entries: readonly CatalogEntry[],
  queries: string[],
): { buildMs: number; timings: { p50Ms: number; p99Ms: number } } {
  const start = performance.now();
  const index = buildMiniSearch(entries);
  const buildMs = performance.now() - start;
  return { buildMs, timings: latency((query) => index.search(query).slice(0, LIMIT), queries) };
}

/** How many copies `retainedMb` builds (the median of the steps between them is reported). */
const MEMORY_COPIES = 4;

/**
 * Megabytes of heap and array buffers one result of `build` keeps, after a full GC. Several copies are built
 * and kept, and the median step between them is reported: an object from an earlier measurement that is freed
 * meanwhile (a stale reference in a stack slot, say) disturbs one step, not the figure.
 */
function retainedMb(build: () => unknown): number {
  const kept: unknown[] = [];
  const totals: number[] = [];
  for (let copy = 0; copy <= MEMORY_COPIES; copy += 1) {
    if (copy > 0) kept.push(build());
    collectGarbage();
    const usage = process.memoryUsage();
    totals.push(usage.heapUsed + usage.arrayBuffers);
  }
  const steps = totals
    .slice(1)
    .map((total, index) => total - totals[index]!)
    .sort((left, right) => left - right);
  // `kept` stays alive until here.
  return kept.length > 0 ? Math.max(0, steps[Math.floor(steps.length / 2)]!) / 1_000_000 : 0;
}

function latency(
  search: (query: string) => unknown,
  queries: readonly string[],
): { p50Ms: number; p99Ms: number } {
  warmUp(search, queries);
  const times = queries.map((query) => {
    const start = performance.now();
    search(query);
    return performance.now() - start;
  });
  times.sort((left, right) => left - right);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { p50Ms: at(0.5), p99Ms: at(0.99) };
}

if (isEntryPoint(import.meta.url)) run();
