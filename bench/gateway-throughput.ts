import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FAKE_PLUGIN_ID, writeFakePlugin } from "../src/qa/index.js";
import { cpuMs, drive as driveAt } from "./drive.js";
import { isEntryPoint } from "./entry-point.js";
import { type Child, CLI_ENTRY, startChild, stopChild } from "./start-child.js";
import { writeResults } from "./write-results.js";

/** Requests in flight at once, for the mock alone and for the gateway. */
const CONCURRENCY = 8;
/** Gateway runs before measuring (JIT, plugin load, first-use caches); their provider bodies are replayed. */
const WARM_UP_RUNS = 40;
/** How long the mock alone is driven. */
const MOCK_PHASE_MS = 8_000;
/** How long the gateway is driven. */
const GATEWAY_PHASE_MS = 20_000;
/** How long the provider floor is driven. */
const FLOOR_PHASE_MS = 10_000;
/** Goals from issue 11. */
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
  /** CPU time of the measured process itself (gateway and floor: per run; mock: per request). */
  cpuMsPerUnit: number;
  /** Gateway: its CPU per run minus the provider floor's (the gateway's own work). */
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
 * utime+stime from `/proc/<pid>/stat`; the gateway's CPU beyond the provider is its CPU per run minus the
 * floor's.
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
    const floorPid = floor.process.pid as number;
    const floorCpu = cpuMs(floorPid);
    const floorPhase = await drive(
      async () => {
        const response = await fetch(`${floor.url}/run`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: "mock-tool-planner", input: RUN_INPUT }),
        });
        const body = (await response.json()) as { ok?: boolean };
        return response.ok && body.ok === true;
      },
      { ms: FLOOR_PHASE_MS },
    );
    const floorCpuMsPerRun = (cpuMs(floorPid) - floorCpu) / Math.max(1, floorPhase.done);
    await stopChild(floor.process);

    const gatewayPid = gateway.process.pid as number;
    const gatewayCpu = cpuMs(gatewayPid);
    const cursor = await mockCursor(mock.url);
    const gatewayPhase = await drive(oneRun, { ms: GATEWAY_PHASE_MS });
    const gatewayCpuMs = cpuMs(gatewayPid) - gatewayCpu;
    const measuredRequests = (await mockCursor(mock.url)) - cursor;
    const runsPerSecond = gatewayPhase.done / gatewayPhase.seconds;
    const perRun = measuredRequests / Math.max(1, gatewayPhase.done);
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
        cpuMsPerUnit: round(gatewayCpuMs / Math.max(1, gatewayPhase.done)),
        cpuMsBeyondProvider: round(gatewayCpuMs / Math.max(1, gatewayPhase.done) - floorCpuMsPerRun),
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
