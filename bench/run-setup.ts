import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import type { ToolDefinition } from "../src/core/catalog/index.js";
import type { ToolsiftConfig } from "../src/runtime/config/index.js";
import type { Provider, ProviderRequest, ProviderResponse } from "../src/runtime/providers/index.js";
import type { Runner, RunnerOptions } from "../src/runtime/runner/index.js";
import type { SessionStore } from "../src/runtime/sessions/index.js";
import { isEntryPoint } from "./entry-point.js";
import { benchRunnerEnvironment } from "./runner-environment.js";
import { loadSealTools } from "./seal-tools.js";
import { syntheticTools } from "./synthetic-tools.js";
import { writeResults } from "./write-results.js";

/** Catalog sizes measured; Seal-Tools is the real 4,076-tool catalog, the others synthetic plugin tools. */
const SIZES: ReadonlyArray<{
  label: string;
  tools: () => ToolDefinition[];
  runs: number;
  goalMs?: number;
  /** Replace one tool with an edited copy before every run (a plugin reloaded, an MCP list change). */
  changeEachRun?: boolean;
}> = [
  { label: "1,000 tools", tools: () => syntheticTools(1_000), runs: 40, goalMs: 5 },
  { label: "4,076 tools (Seal-Tools)", tools: loadSealTools, runs: 40, goalMs: 5 },
  { label: "10,000 tools", tools: () => syntheticTools(10_000), runs: 20, goalMs: 10 },
  { label: "100,000 tools", tools: () => syntheticTools(100_000), runs: 6, goalMs: 50 },
  { label: "4,076 tools, one changed per run", tools: loadSealTools, runs: 20, changeEachRun: true },
  {
    label: "100,000 tools, one changed per run",
    tools: () => syntheticTools(100_000),
    runs: 6,
    changeEachRun: true,
  },
];
/** Runs before measuring: the first one builds what later runs reuse (JIT and caches too). */
const WARM_UP_RUNS = 3;

/** What a source tree offers: its runner and its file session store. */
type Tree = {
  name: string;
  createRunner(options: RunnerOptions): Runner;
  createFileSessionStore(stateDir: string): SessionStore;
};

type Row = {
  catalog: string;
  tree: string;
  /** Setup of the very first run in this process for this catalog (builds everything). */
  firstRunMs: number;
  /** Median setup of the runs after warm-up: run start to the first provider request, provider excluded. */
  medianMs: number;
  p90Ms: number;
  goalMs?: number;
  runs: number;
};

/** A provider that answers at once and notes when each request arrived. */
function timingProvider(): Provider & { arrived: number } {
  const provider = {
    id: "bench",
    arrived: 0,
    async complete(_request: ProviderRequest): Promise<ProviderResponse> {
      provider.arrived = performance.now();
      return {
        output: [{ type: "message", role: "assistant", text: "done" }],
        usage: { inputTokens: 1, outputTokens: 1 },
        requestBytes: 1,
      };
    },
  };
  return provider;
}

const config: ToolsiftConfig = {
  models: {
    providers: { bench: { api: "openai-responses", baseUrl: "http://127.0.0.1:9/v1", maxRetries: 0 } },
  },
  agents: { defaults: { model: "bench/bench-model" } },
  tools: { toolSearch: { enabled: true, mode: "tools" } },
};

async function measure(
  tree: Tree,
  original: ToolDefinition[],
  runs: number,
  stateDir: string,
  changeEachRun = false,
) {
  const provider = timingProvider();
  let tools = original;
  const runner = tree.createRunner({
    environment: benchRunnerEnvironment(config, stateDir, tree.createFileSessionStore(stateDir)),
    coreTools: false,
    extraTools: () => tools,
    createProvider: () => provider,
  });
  const setups: number[] = [];
  try {
    for (let index = 0; index < WARM_UP_RUNS + runs; index += 1) {
      if (changeEachRun) {
        const at = (index * 7919) % original.length;
        const edited = { ...(original[at] as ToolDefinition) };
        edited.description = `${edited.description ?? ""} (revision ${index})`;
        tools = original.map((tool, position) => (position === at ? edited : tool));
      }
      const started = performance.now();
      const result = await runner.run({
        agentId: "main",
        sessionKey: `s${index}`,
        input: [{ type: "message", role: "user", text: "find the weather for Paris" }],
      });
      if (result.status !== "completed") throw new Error(`bench run ${index} ended ${result.status}`);
      setups.push(provider.arrived - started);
    }
  } finally {
    await runner.close(1_000);
  }
  return { first: setups[0] ?? 0, measured: setups.slice(WARM_UP_RUNS) };
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;
const round = (ms: number) => Math.round(ms * 100) / 100;

async function loadTree(name: string, srcDir: string): Promise<Tree> {
  const url = (file: string) => pathToFileURL(join(srcDir, file)).href;
  const runner = (await import(url("runtime/runner/index.ts"))) as Pick<Tree, "createRunner">;
  const sessions = (await import(url("runtime/sessions/index.ts"))) as Pick<Tree, "createFileSessionStore">;
  return { name, createRunner: runner.createRunner, createFileSessionStore: sessions.createFileSessionStore };
}

/**
 * Run setup against catalog size, in process: a runner whose tools (registered once, as a plugin's are) are
 * 1,000 to 100,000 definitions, a provider that answers at once, the real file session store. Each run is a
 * new session; the figure is the time from `runner.run()` to the provider's first request. With
 * `RUN_SETUP_BASELINE=<path to another tree's src>` the same runs go through that tree too, for a side-by-side
 * figure (its first run comes second, so its "first run" already has a warm JIT).
 */
export async function run(): Promise<Row[]> {
  const trees = [await loadTree("current", new URL("../src/", import.meta.url).pathname)];
  const baseline = process.env.RUN_SETUP_BASELINE;
  if (baseline) trees.push(await loadTree("baseline", resolve(baseline)));
  const root = await mkdtemp(join(tmpdir(), "toolsift-bench-run-setup-"));
  const rows: Row[] = [];
  try {
    for (const size of SIZES) {
      const tools = size.tools();
      for (const tree of trees) {
        const stateDir = join(root, `${tree.name}-${rows.length}`);
        const { first, measured } = await measure(tree, tools, size.runs, stateDir, size.changeEachRun);
        rows.push({
          catalog: size.label,
          tree: tree.name,
          firstRunMs: round(first),
          medianMs: round(quantile(measured, 0.5)),
          p90Ms: round(quantile(measured, 0.9)),
          ...(size.goalMs === undefined ? {} : { goalMs: size.goalMs }),
          runs: measured.length,
        });
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  console.table(rows);
  if (!baseline) writeResults("run-setup", rows);
  return rows;
}

if (isEntryPoint(import.meta.url)) await run();
