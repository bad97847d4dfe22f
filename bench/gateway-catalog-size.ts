import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { FAKE_PLUGIN_ID, FAKE_PLUGIN_TOOL_COUNT, writeFakePlugin } from "../src/dev/qa/index.js";
import { cpuMs, drive } from "./drive.js";
import { isEntryPoint } from "./entry-point.js";
import { writeSealPlugins } from "./seal-plugin.js";
import { type Child, CLI_ENTRY, startChild, stopChild } from "./start-child.js";
import { writeResults } from "./write-results.js";

/** Requests in flight at once (as in gateway-throughput). */
const CONCURRENCY = 8;
/** Runs per gateway before measuring. */
const WARM_UP_RUNS = 40;
/** Each gateway is driven this long per round; rounds alternate between them. */
const PHASE_MS = 8_000;
const ROUNDS = 2;
/** Single runs after the first one, for the warm figure the first run is compared with. */
const SINGLE_RUNS = 15;
/** How long a fresh gateway may take to report its search ready. */
const READY_TIMEOUT_MS = 60_000;
/** Goals: runs/s with the large catalog over the small one, and a fresh gateway's first search in ms. */
const RATIO_GOAL = 0.8;
const FIRST_SEARCH_GOAL_MS = 100;
const RUN_INPUT = "tool search qa check target=fake_plugin_tool_17";

type Row = {
  measured: string;
  tools: number;
  value: number;
  unit: string;
  goal?: string;
  cpuMsPerRun?: number;
  failures?: number;
};

type Gateway = { child: Child; tools: number; session: number };

async function startGateway(
  root: string,
  name: string,
  mockUrl: string,
  pluginDirs: string[],
  tools: number,
) {
  const home = join(root, name);
  const stateDir = join(home, "state");
  await mkdir(stateDir, { recursive: true });
  const configPath = join(home, "toolsift.json");
  const config = {
    models: { providers: { mock: { api: "openai-responses", baseUrl: mockUrl, apiKey: "mock-key" } } },
    agents: { defaults: { model: "mock/mock-tool-planner" } },
    tools: { toolSearch: { enabled: true, mode: "tools" } },
    plugins: { load: { paths: pluginDirs } },
  };
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);
  const started = performance.now();
  const child = await startChild(["gateway", "--port", "0", "--config", configPath], {
    ...process.env,
    TOOLSIFT_HOME: home,
    TOOLSIFT_STATE_DIR: stateDir,
    TOOLSIFT_CONFIG: configPath,
  });
  const listeningMs = performance.now() - started;
  const warmedMs = await searchReady(child);
  const loaded = [...child.stderr().matchAll(/plugin \S+ loaded: (\d+) tools/g)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
  if (loaded !== tools)
    throw new Error(`the ${name} gateway loaded ${loaded} tools, not ${tools}: ${child.stderr()}`);
  return { gateway: { child, tools, session: 0 } satisfies Gateway, listeningMs, warmedMs };
}

/**
 * Waits for the gateway's `search ready: … in N ms` line and returns N; -1 at once with
 * `BENCH_NO_WARM_UP=1` (a build from before start-up warming, measured as the baseline).
 */
async function searchReady(child: Child): Promise<number> {
  if (process.env.BENCH_NO_WARM_UP === "1") return -1;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const match = /search ready: .* in (\d+) ms/.exec(child.stderr());
    if (match) return Number(match[1]);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the gateway did not report its search ready: ${child.stderr()}`);
}

async function oneRun(gateway: Gateway): Promise<boolean> {
  gateway.session += 1;
  const response = await fetch(`${gateway.child.url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-toolsift-session": `bench-${gateway.session}` },
    body: JSON.stringify({ model: "mock-tool-planner", input: RUN_INPUT }),
  });
  const body = (await response.json()) as { output_text?: string };
  return response.ok && (body.output_text ?? "").includes("FAKE_PLUGIN_OK");
}

async function timedRun(gateway: Gateway): Promise<number> {
  const started = performance.now();
  if (!(await oneRun(gateway))) throw new Error("a gateway run failed");
  return performance.now() - started;
}

/** A fresh gateway's first run, the median of the single runs after it, and the difference. */
async function firstAndLater(gateway: Gateway) {
  const first = await timedRun(gateway);
  const later: number[] = [];
  for (let index = 0; index < SINGLE_RUNS; index += 1) later.push(await timedRun(gateway));
  const laterMs = median(later);
  return { first, later: laterMs, extra: first - laterMs };
}

function firstRunRows(tools: number, runs: { first: number; later: number; extra: number }): Row[] {
  return [
    { measured: "fresh gateway: first run", tools, value: round(runs.first), unit: "ms" },
    { measured: "fresh gateway: later single runs (median)", tools, value: round(runs.later), unit: "ms" },
    { measured: "fresh gateway: first run's extra time", tools, value: round(runs.extra), unit: "ms" },
  ];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const round = (value: number) => Math.round(value * 100) / 100;

/**
 * Gateway runs against catalog size, in one run: two real `toolsift gateway` children on one mock, one with
 * the QA fake plugin (36 tools), one with the fake plugin and plugins registering Seal-Tools' 4,076 tools (a
 * manifest lists at most 1,000, so five plugins; the bench checks the gateway's log that all loaded).
 * Each does the same run (tool_search, tool_call, answer), at concurrency 8, in alternating phases; the
 * large one's runs/s over the small one's is the figure (goal ≥ 0.8). The large gateway is started fresh
 * first: its start-up warming (catalog and search index built before the first run) is timed from its log,
 * and its first run is compared with the median of the single runs after it.
 */
export async function run(): Promise<Row[]> {
  if (!existsSync(CLI_ENTRY)) throw new Error(`${CLI_ENTRY} is missing: run \`npm run build\` first.`);
  const root = await mkdtemp(join(tmpdir(), "toolsift-bench-catalog-size-"));
  const children: Child[] = [];
  try {
    const mock = await startChild(["mock-openai", "--port", "0"], process.env);
    children.push(mock);
    const fakeDir = await writeFakePlugin(join(root, "plugins", FAKE_PLUGIN_ID));
    const seal = await writeSealPlugins(join(root, "plugins"));
    const largeTools = FAKE_PLUGIN_TOOL_COUNT + seal.tools;

    const large = await startGateway(root, "large", mock.url, [fakeDir, ...seal.dirs], largeTools);
    children.push(large.gateway.child);
    const largeFirst = await firstAndLater(large.gateway);
    const small = await startGateway(root, "small", mock.url, [fakeDir], FAKE_PLUGIN_TOOL_COUNT);
    children.push(small.gateway.child);
    const smallFirst = await firstAndLater(small.gateway);
    const gateways = [small.gateway, large.gateway];
    for (const gateway of gateways) await drive(() => oneRun(gateway), { count: WARM_UP_RUNS }, CONCURRENCY);

    const totals = new Map<Gateway, { done: number; failed: number; seconds: number; cpu: number }>();
    for (let round = 0; round < ROUNDS; round += 1) {
      const ordered = round % 2 === 0 ? gateways : [...gateways].reverse();
      for (const gateway of ordered) {
        const pid = gateway.child.process.pid as number;
        const cpuBefore = cpuMs(pid);
        const phase = await drive(() => oneRun(gateway), { ms: PHASE_MS }, CONCURRENCY);
        const total = totals.get(gateway) ?? { done: 0, failed: 0, seconds: 0, cpu: 0 };
        total.done += phase.done;
        total.failed += phase.failed;
        total.seconds += phase.seconds;
        total.cpu += cpuMs(pid) - cpuBefore;
        totals.set(gateway, total);
      }
    }
    const perSecond = (gateway: Gateway) => {
      const total = totals.get(gateway);
      return total ? total.done / total.seconds : 0;
    };
    const throughputRow = (gateway: Gateway, label: string, extra: Partial<Row> = {}): Row => {
      const total = totals.get(gateway) ?? { done: 0, failed: 0, seconds: 0, cpu: 0 };
      return {
        measured: label,
        tools: gateway.tools,
        value: round(perSecond(gateway)),
        unit: "runs/s",
        cpuMsPerRun: round(total.cpu / Math.max(1, total.done)),
        failures: total.failed,
        ...extra,
      };
    };
    const rows: Row[] = [
      throughputRow(small.gateway, "gateway runs/s, fake plugin"),
      throughputRow(large.gateway, "gateway runs/s, fake plugin + Seal-Tools plugins"),
      {
        measured: "large over small runs/s",
        tools: largeTools,
        value: round(perSecond(large.gateway) / Math.max(1e-9, perSecond(small.gateway))),
        unit: "ratio",
        goal: `>= ${RATIO_GOAL}`,
      },
      {
        measured: "fresh gateway: start to listening",
        tools: largeTools,
        value: round(large.listeningMs),
        unit: "ms",
      },
      {
        measured: "fresh gateway: start-up warming (catalog + index)",
        tools: largeTools,
        value: large.warmedMs,
        unit: "ms",
      },
      ...firstRunRows(largeTools, largeFirst),
      ...firstRunRows(FAKE_PLUGIN_TOOL_COUNT, smallFirst),
      {
        measured: "first run's extra time that grows with the catalog (first search included)",
        tools: largeTools,
        value: round(largeFirst.extra - smallFirst.extra),
        unit: "ms",
        goal: `<= ${FIRST_SEARCH_GOAL_MS}`,
      },
    ];
    console.table(rows);
    writeResults("gateway-catalog-size", rows);
    return rows;
  } finally {
    for (const child of children) await stopChild(child.process);
    await rm(root, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) await run();
