import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isEntryPoint } from "./entry-point.js";
import { writeResults } from "./write-results.js";

/** Runs in all, and how often retained heap is measured. */
const RUNS = 5_000;
const STEP = 1_000;
/** Requests in flight at once (each on its own new session). */
const CONCURRENCY = 8;
/**
 * Forced collections before each reading, each followed by a turn of the event loop: finalization callbacks
 * (undici's `Request` unlinks its signal from its source in one) run between passes, so what they free counts.
 */
const GC_PASSES = 4;
const GC_PAUSE_MS = 20;
const THIS_FILE = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The plugin tool every run calls once (the mock calls a declared tool it is asked for). */
const TOOL = "bench_echo";
/** A tmpfs on Linux. */
const SHARED_MEMORY = "/dev/shm";

type Point = { runs: number; heapMb: number; rssMb: number };

/**
 * The baseline ("before"): this bench, run once on commit e37190b (the tree exported with `git archive`), a
 * design that handed each provider request `AbortSignal.any([drain, AbortSignal.timeout(…)])` and retained
 * heap per run. Kept for comparison; the run's own figures are measured afresh every time.
 */
const BEFORE = {
  commit: "e37190b",
  points: [
    { runs: 0, heapMb: 23.09 },
    { runs: 1_000, heapMb: 32.83 },
    { runs: 2_000, heapMb: 35.68 },
    { runs: 3_000, heapMb: 38.94 },
    { runs: 4_000, heapMb: 41.81 },
    { runs: 5_000, heapMb: 45.17 },
  ],
  mbPer1000Runs: 3.081,
};
type Result = {
  node: string;
  commit: string;
  /** True when the tree had uncommitted changes (the figure is then of the working tree). */
  dirty: boolean;
  runs: number;
  concurrency: number;
  /** Provider requests per run (a tool call, then the answer). */
  providerRequestsPerRun: number;
  /** Retained heap of the gateway process after forced GC, every 1,000 runs. */
  points: Point[];
  /** Least-squares slope of retained heap over the points from 1,000 runs on (the first 1,000 include one-time loading). */
  mbPer1000Runs: number;
  goalMbPer1000Runs: number;
  met: boolean;
  runsPerSecond: number;
  seconds: number;
  /** Measured once before the change (see BEFORE); not this run's figure. */
  before: typeof BEFORE;
};

/**
 * Retained heap of a real gateway over 5,000 runs: the gateway (`startConfiguredGateway`: real config file,
 * real plugin, real runner and session store) runs in its own process started with `--expose-gc`, the mock
 * provider in another, and this process is the HTTP client (8 at a time, a new session per run, Chat
 * Completions so no response id is remembered). Separate processes keep the client's and the mock's own
 * memory (the mock keeps a request log) out of the gateway's figure. Writes `bench/results/gateway-memory.json`.
 */
export async function run(options: { runs?: number } = {}): Promise<Result> {
  const runs = options.runs ?? RUNS;
  // tmpfs where there is one: every run fsyncs its session log, and the disk is not what is measured here.
  const dir = mkdtempSync(
    join(existsSync(SHARED_MEMORY) ? SHARED_MEMORY : tmpdir(), "toolsift-bench-memory-"),
  );
  const children: ChildProcess[] = [];
  try {
    const mock = startChild(["--role=mock"], {});
    children.push(mock.child);
    const mockUrl = await mock.ready;
    const configPath = writeSetup(dir, mockUrl);
    const gateway = startChild(["--role=gateway", `--config=${configPath}`], {
      TOOLSIFT_HOME: dir,
      TOOLSIFT_STATE_DIR: join(dir, "state"),
    });
    children.push(gateway.child);
    const url = await gateway.ready;
    const points: Point[] = [await measure(gateway.child, 0)];
    const started = performance.now();
    let done = 0;
    while (done < runs) {
      const batch = Math.min(STEP, runs - done);
      await runMany(url, batch);
      done += batch;
      points.push(await measure(gateway.child, done));
      process.stdout.write(`  ${done} runs: ${points.at(-1)?.heapMb} MB\n`);
    }
    const seconds = (performance.now() - started) / 1000;
    const slope = slopePer1000(points.filter((point) => point.runs >= STEP));
    const result: Result = {
      node: process.version,
      ...revision(),
      runs,
      concurrency: CONCURRENCY,
      providerRequestsPerRun: 2,
      points,
      mbPer1000Runs: round(slope, 3),
      goalMbPer1000Runs: 0.1,
      met: slope <= 0.1,
      runsPerSecond: round(runs / seconds, 1),
      seconds: round(seconds, 1),
      before: BEFORE,
    };
    console.table(
      points.map((point) => ({
        runs: point.runs,
        heapMb: point.heapMb,
        rssMb: point.rssMb,
        [`before (${BEFORE.commit}) heapMb`]: BEFORE.points.find((old) => old.runs === point.runs)?.heapMb,
      })),
    );
    console.log(
      `retained heap: ${result.mbPer1000Runs} MB per 1,000 runs (goal <= 0.1); before, on ${BEFORE.commit}: ${BEFORE.mbPer1000Runs}`,
    );
    writeResults("gateway-memory", result);
    return result;
  } finally {
    for (const child of children) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A config with the mock provider and one plugin tool; Tool Search off so each run calls the tool directly. */
function writeSetup(dir: string, mockUrl: string): string {
  const plugin = join(dir, "plugin");
  mkdirSync(plugin, { recursive: true });
  writeFileSync(
    join(plugin, "toolsift.plugin.json"),
    JSON.stringify({ id: "bench-plugin", name: "Bench", version: "1.0.0", main: "index.js", tools: [TOOL] }),
  );
  writeFileSync(
    join(plugin, "index.js"),
    `export function register(api) {
  api.registerTool({
    name: ${JSON.stringify(TOOL)},
    description: "Echoes a marker.",
    parameters: { type: "object", properties: { marker: { type: "string" } }, required: ["marker"] },
    execute: async (args) => ({ content: [{ type: "text", text: "ECHO " + args.marker }] }),
  });
}
`,
  );
  const config = {
    models: { providers: { mock: { api: "openai-responses", baseUrl: mockUrl, apiKey: "mock-key" } } },
    agents: { defaults: { model: "mock/mock-tool-planner" } },
    plugins: { load: { paths: [plugin] } },
    tools: { profile: "minimal", alsoAllow: [TOOL], toolSearch: false },
  };
  const configPath = join(dir, "toolsift.json");
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return configPath;
}

/** `runs` runs over HTTP, `CONCURRENCY` at a time; any answer other than the tool's echo fails the bench. */
async function runMany(url: string, runs: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < runs) {
      next += 1;
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        // Each run its own session, as the bench measures (the same words without a session are one session).
        headers: { "content-type": "application/json", "x-toolsift-session": `memory-${next}` },
        body: JSON.stringify({
          model: "toolsift",
          messages: [{ role: "user", content: `memory bench target=${TOOL}` }],
        }),
      });
      const text = await response.text();
      if (response.status !== 200 || !text.includes("ECHO"))
        throw new Error(`run failed: ${response.status} ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** Asks the gateway process for its heap after forced collections. */
function measure(child: ChildProcess, runs: number): Promise<Point> {
  return new Promise((resolve) => {
    child.once("message", (message) => {
      const { heapUsed, rss } = message as { heapUsed: number; rss: number };
      resolve({ runs, heapMb: round(heapUsed / 2 ** 20, 2), rssMb: round(rss / 2 ** 20, 1) });
    });
    child.send("measure");
  });
}

function startChild(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", THIS_FILE, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const ready = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      out += chunk;
      const match = /^ready (\S+)$/m.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} exited with code ${code}`)));
  });
  return { child, ready };
}

function slopePer1000(points: readonly Point[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((sum, point) => sum + point.runs, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.heapMb, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const point of points) {
    numerator += (point.runs - meanX) * (point.heapMb - meanY);
    denominator += (point.runs - meanX) ** 2;
  }
  return (numerator / denominator) * 1000;
}

function revision(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    return { commit, dirty: status.trim().length > 0 };
  } catch {
    return { commit: "unknown", dirty: true };
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** The child roles: the mock provider, or the gateway answering heap readings over IPC. */
async function serveRole(role: string | undefined): Promise<void> {
  if (role === "mock") {
    const { startMockOpenAI } = await import("../src/dev/mock-openai/index.js");
    const mock = await startMockOpenAI({ port: 0 });
    process.stdout.write(`ready ${mock.baseUrl}\n`);
  } else if (role === "gateway") {
    const configPath = process.argv.find((arg) => arg.startsWith("--config="))?.slice("--config=".length);
    const { startConfiguredGateway } = await import("../src/front-doors/cli/start-configured-gateway.js");
    const gateway = await startConfiguredGateway(
      { port: 0, ...(configPath ? { configPath } : {}) },
      () => {},
    );
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error("start the gateway role with --expose-gc");
    process.on("message", async () => {
      for (let pass = 0; pass < GC_PASSES; pass += 1) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, GC_PAUSE_MS));
      }
      const { heapUsed, rss } = process.memoryUsage();
      process.send?.({ heapUsed, rss });
    });
    process.stdout.write(`ready ${gateway.url}\n`);
  } else {
    throw new Error(`unknown role ${role}`);
  }
  process.once("SIGTERM", () => process.exit(0));
  process.once("disconnect", () => process.exit(0));
}

const role = process.argv.find((arg) => arg.startsWith("--role="))?.slice("--role=".length);
if (role !== undefined) await serveRole(role);
else if (isEntryPoint(import.meta.url)) {
  const runsArg = process.argv.find((arg) => arg.startsWith("--runs="));
  await run(runsArg ? { runs: Number(runsArg.slice("--runs=".length)) } : {});
}
