import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FAKE_PLUGIN_ID, writeFakePlugin } from "../src/dev/qa/index.js";
import { cpuMs, drive as driveAt } from "./drive.js";
import { isEntryPoint } from "./entry-point.js";
import { type Child, CLI_ENTRY, startChild, stopChild } from "./start-child.js";
import { writeResults } from "./write-results.js";

/** Requests in flight at once, for the mock alone and for the gateway. */
const CONCURRENCY = 8;
/** Gateway runs before measuring (JIT, plugin load, first-use caches); their provider bodies are replayed. */
const WARM_UP_RUNS = 40;
/**
 * How long the floor and the gateway are driven before their rounds are measured. Both cost more per run in
 * their first half minute (JIT, heap sizing): in one 6-round run without it the gateway went from 11.5 to
 * 8.0 ms per run and the floor from 5.1 to 3.9, round by round.
 */
const WARM_UP_MS = 20_000;
/** How long the mock alone is driven. */
const MOCK_PHASE_MS = 8_000;
/** Rounds of (provider floor, gateway), alternating: the machine's drift falls on both, the median is reported. */
const ROUNDS = 4;
/** How long the gateway is driven per round. */
const GATEWAY_PHASE_MS = 8_000;
/** How long the provider floor is driven per round. */
const FLOOR_PHASE_MS = 5_000;
/** Goals: gateway runs/s as a share of the mock-bound rate, and CPU ms per run beyond the provider. */
const RATIO_GOAL = 0.3;
const CPU_GOAL_MS = 5;

/** The provider floor: HTTP in, one run's provider requests through the `openai` client, HTTP out. */
const FLOOR_SERVER = fileURLToPath(new URL("./provider-floor-server.ts", import.meta.url));
/** What each run asks: the mock calls the fake plugin's tool through tool_search + tool_call, then answers. */
const RUN_INPUT = "tool search qa check target=fake_plugin_tool_17";

type Row = {
  measured: string;
  concurrency: number;
  seconds: number;
  /** Mock alone: requests/s. Gateway: runs/s. */
  perSecond: number;
  requestsPerRun?: number;
  mockBoundRunsPerSecond?: number;
  ratio?: number;
  ratioGoal?: number;
  /** CPU time of the measured process itself (gateway and floor: per run, median round; mock: per request). */
  cpuMsPerUnit: number;
  /** Gateway and floor: CPU per run in each round. */
  cpuMsPerRound?: number[];
  /** Gateway and floor: CPU per run during the warm-up (the process's first WARM_UP_MS of load). */
  cpuMsPerUnitWarmingUp?: number;
  /** Gateway: the same difference as cpuMsBeyondProvider, over the two warm-ups. */
  cpuMsBeyondProviderWarmingUp?: number;
  /** Gateway: its CPU per run minus the provider floor's in the same round, median of the rounds (the gateway's own work). */
  cpuMsBeyondProvider?: number;
  cpuGoalMs?: number;
  failures: number;
};

/**
 * Gateway throughput beside its upstream, in one run: (a) the mock provider alone, driven by plain HTTP POSTs
 * of the very bodies the gateway sent it during warm-up, and (b) a real `toolsift gateway` child process (built
 * CLI) with the QA fake plugin, doing runs of a known number of provider requests, and (c) the provider
 * floor (`provider-floor-server.ts`): a process that takes the same HTTP request and sends one run's recorded
 * provider bodies through the `openai` client, nothing else. All at concurrency 8; the mock runs as its own
 * child (`toolsift mock-openai`) so its CPU never mixes with the load generator's. CPU is each child's own
 * utime+stime from `/proc/<pid>/stat`. The floor and the gateway are measured in ROUNDS alternating rounds
 * (each warmed up first); the gateway's CPU beyond the provider is, per round, its CPU per run minus the
 * floor's in the round just before, and the median of the rounds is reported: one round on a busy moment
 * of the machine moves neither figure.
 */
export async function run(): Promise<Row[]> {
  if (!existsSync(CLI_ENTRY)) throw new Error(`${CLI_ENTRY} is missing: run \`npm run build\` first.`);
  const root = await mkdtemp(join(tmpdir(), "toolsift-bench-throughput-"));
  const children: Child[] = [];
  try {
    const mock = await startChild(["mock-openai", "--port", "0"], process.env);
    children.push(mock);
    const pluginDir = await writeFakePlugin(join(root, "plugins", FAKE_PLUGIN_ID));
    const stateDir = join(root, "state");
    await mkdir(stateDir, { recursive: true });
    const configPath = join(root, "toolsift.json");
    const config = {
      models: { providers: { mock: { api: "openai-responses", baseUrl: mock.url, apiKey: "mock-key" } } },
      agents: { defaults: { model: "mock/mock-tool-planner" } },
      plugins: { load: { paths: [pluginDir] } },
    };
    await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);
    const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? "").split(" ").filter(Boolean);
    const gateway = await startChild(
      ["gateway", "--port", "0", "--config", configPath],
      { ...process.env, TOOLSIFT_HOME: root, TOOLSIFT_STATE_DIR: stateDir, TOOLSIFT_CONFIG: configPath },
      { nodeArgs },
    );
    children.push(gateway);

    let session = 0;
    const oneRun = async (): Promise<boolean> => {
      session += 1;
      const response = await fetch(`${gateway.url}/v1/responses`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-toolsift-session": `bench-${session}` },
        body: JSON.stringify({ model: "mock-tool-planner", input: RUN_INPUT }),
      });
      const body = (await response.json()) as { output_text?: string };
      return response.ok && (body.output_text ?? "").includes("FAKE_PLUGIN_OK");
    };

    const before = await mockCursor(mock.url);
    await drive(oneRun, { count: WARM_UP_RUNS });
    const bodies = await recordedBodies(mock.url, before);
    const requestsPerRun = bodies.length / WARM_UP_RUNS;
    // One run alone, so its provider bodies are in order: the floor replays exactly these.
    const alone = await mockCursor(mock.url);
    if (!(await oneRun())) throw new Error("a gateway run failed before measuring");
    const bodiesPath = join(root, "run-bodies.json");
    await writeFile(bodiesPath, JSON.stringify(await recordedBodies(mock.url, alone)));

    const mockPid = mock.process.pid as number;
    const mockCpu = cpuMs(mockPid);
    const mockPhase = await drive(
      async () => {
        const body = bodies[Math.floor(Math.random() * bodies.length)] as string;
        const response = await fetch(`${mock.url}/responses`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        await response.arrayBuffer();
        return response.ok;
      },
      { ms: MOCK_PHASE_MS },
    );
    const mockCpuMs = cpuMs(mockPid) - mockCpu;
    const mockPerSecond = mockPhase.done / mockPhase.seconds;

    const floor = await startChild([FLOOR_SERVER, mock.url, bodiesPath], process.env, {
      nodeArgs: ["--import", "tsx", ...(process.env.BENCH_FLOOR_NODE_ARGS ?? "").split(" ").filter(Boolean)],
      entry: "",
    });
    children.push(floor);
    const floorRun = async (): Promise<boolean> => {
      const response = await fetch(`${floor.url}/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "mock-tool-planner", input: RUN_INPUT }),
      });
      const body = (await response.json()) as { ok?: boolean };
      return response.ok && body.ok === true;
    };
    // Both warmed up under the same load before measuring: the first seconds of either (JIT, heap growth)
    // cost more per run than the rest.
    const floorWarmUp = await measure(floor.process.pid as number, floorRun, WARM_UP_MS);
    const gatewayWarmUp = await measure(gateway.process.pid as number, oneRun, WARM_UP_MS);

    const floorRounds: Phase[] = [];
    const gatewayRounds: Phase[] = [];
    for (let index = 0; index < ROUNDS; index += 1) {
      floorRounds.push(await measure(floor.process.pid as number, floorRun, FLOOR_PHASE_MS));
      const cursor = await mockCursor(mock.url);
      const phase = await measure(gateway.process.pid as number, oneRun, GATEWAY_PHASE_MS);
      phase.requests = (await mockCursor(mock.url)) - cursor;
      gatewayRounds.push(phase);
    }
    const floorPhase = sum(floorRounds);
    const gatewayPhase = sum(gatewayRounds);
    const floorCpuMsPerRun = median(floorRounds.map(cpuPerRun));
    const gatewayCpuMsPerRun = median(gatewayRounds.map(cpuPerRun));
    // Each round's gateway beside the floor measured right before it; the median of those differences.
    const beyond = median(
      gatewayRounds.map((phase, index) => cpuPerRun(phase) - cpuPerRun(floorRounds[index] as Phase)),
    );
    const runsPerSecond = gatewayPhase.done / gatewayPhase.seconds;
    const perRun = (gatewayPhase.requests ?? 0) / Math.max(1, gatewayPhase.done);
    const mockBound = mockPerSecond / perRun;

    const rows: Row[] = [
      {
        measured: "mock provider alone",
        concurrency: CONCURRENCY,
        seconds: round(mockPhase.seconds),
        perSecond: round(mockPerSecond),
        cpuMsPerUnit: round(mockCpuMs / Math.max(1, mockPhase.done)),
        failures: mockPhase.failed,
      },
      {
        measured: "provider floor runs",
        concurrency: CONCURRENCY,
        seconds: round(floorPhase.seconds),
        perSecond: round(floorPhase.done / floorPhase.seconds),
        requestsPerRun: round(requestsPerRun),
        cpuMsPerUnit: round(floorCpuMsPerRun),
        cpuMsPerRound: floorRounds.map((phase) => round(cpuPerRun(phase))),
        cpuMsPerUnitWarmingUp: round(cpuPerRun(floorWarmUp)),
        failures: floorPhase.failed,
      },
      {
        measured: "gateway runs",
        concurrency: CONCURRENCY,
        seconds: round(gatewayPhase.seconds),
        perSecond: round(runsPerSecond),
        requestsPerRun: round(perRun),
        mockBoundRunsPerSecond: round(mockBound),
        ratio: round(runsPerSecond / mockBound),
        ratioGoal: RATIO_GOAL,
        cpuMsPerUnit: round(gatewayCpuMsPerRun),
        cpuMsPerRound: gatewayRounds.map((phase) => round(cpuPerRun(phase))),
        cpuMsPerUnitWarmingUp: round(cpuPerRun(gatewayWarmUp)),
        cpuMsBeyondProviderWarmingUp: round(cpuPerRun(gatewayWarmUp) - cpuPerRun(floorWarmUp)),
        cpuMsBeyondProvider: round(beyond),
        cpuGoalMs: CPU_GOAL_MS,
        failures: gatewayPhase.failed,
      },
    ];
    if (Math.abs(requestsPerRun - perRun) > 0.01) {
      console.warn(`requests per run differ: ${requestsPerRun} in warm-up, ${perRun} measured`);
    }
    console.table(rows);
    writeResults("gateway-throughput", rows);
    return rows;
  } finally {
    for (const child of children) await stopChild(child.process);
    await rm(root, { recursive: true, force: true });
  }
}

/** One measured phase: runs done and failed, wall seconds, the process's CPU ms, and (gateway) mock requests. */
type Phase = { done: number; failed: number; seconds: number; cpuMs: number; requests?: number };

async function measure(pid: number, once: () => Promise<boolean>, ms: number): Promise<Phase> {
  const before = cpuMs(pid);
  const phase = await drive(once, { ms });
  return { ...phase, cpuMs: cpuMs(pid) - before };
}

const cpuPerRun = (phase: Phase) => phase.cpuMs / Math.max(1, phase.done);

function sum(phases: Phase[]): Phase {
  return phases.reduce(
    (total, phase) => ({
      done: total.done + phase.done,
      failed: total.failed + phase.failed,
      seconds: total.seconds + phase.seconds,
      cpuMs: total.cpuMs + phase.cpuMs,
      requests: (total.requests ?? 0) + (phase.requests ?? 0),
    }),
    { done: 0, failed: 0, seconds: 0, cpuMs: 0, requests: 0 },
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const drive = (once: () => Promise<boolean>, until: { count?: number; ms?: number }) =>
  driveAt(once, until, CONCURRENCY);

async function mockCursor(baseUrl: string): Promise<number> {
  const origin = new URL(baseUrl).origin;
  const body = (await (await fetch(`${origin}/debug/requests?after=999999999999999`)).json()) as {
    cursor: number;
  };
  return body.cursor;
}

async function recordedBodies(baseUrl: string, after: number): Promise<string[]> {
  const origin = new URL(baseUrl).origin;
  const body = (await (await fetch(`${origin}/debug/requests?after=${after}`)).json()) as {
    requests: Array<{ body: string; path?: string }>;
  };
  return body.requests.map((request) => request.body);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (isEntryPoint(import.meta.url)) await run();
