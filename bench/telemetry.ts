import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { ToolDefinition } from "../src/core/catalog/index.js";
import type { ToolsiftConfig } from "../src/runtime/config/index.js";
import type {
  ConversationItem,
  Provider,
  ProviderRequest,
  ProviderResponse,
} from "../src/runtime/providers/index.js";
import type { Runner, RunnerOptions } from "../src/runtime/runner/index.js";
import type { SessionStore } from "../src/runtime/sessions/index.js";
import { isEntryPoint } from "./entry-point.js";
import { benchRunnerEnvironment } from "./runner-environment.js";
import { syntheticTools } from "./synthetic-tools.js";
import { writeResults } from "./write-results.js";

/** Runs per round (each a new session: search, call, answer), rounds interleaved; the median round is reported. */
const RUNS = 300;
const ROUNDS = 7;
/** Runs before measuring (JIT, caches). */
const WARM_UP_RUNS = 100;
/** Plugin tools in the catalog besides the one the runs call. */
const CATALOG_TOOLS = 500;

/** What a source tree offers: its runner and its file session store. */
type Tree = {
  name: string;
  createRunner(options: RunnerOptions): Runner;
  createFileSessionStore(stateDir: string): SessionStore;
};

/**
 * How a round is measured: which tree, and what of OpenTelemetry is registered meanwhile: nothing, only the
 * AsyncLocalStorage context manager (what carries the active span across `await`), or the whole SDK.
 */
type Mode = { label: string; tree: Tree; sdk: "none" | "context-only" | "full" };

type Row = {
  mode: string;
  runs: number;
  /** Process CPU (user + system) per run, median of ROUNDS: steadier than wall time on a shared machine. */
  cpuUsPerRun: number;
  /** Wall time per run, median of ROUNDS. */
  wallUsPerRun: number;
  cpuRoundsUs: number[];
};

/** One round's cost per run, in microseconds. */
type RoundCost = { cpuUs: number; wallUs: number };

const TARGET: ToolDefinition = {
  name: "bench_echo",
  origin: { kind: "plugin", owner: "bench" },
  description: "Echo a text back (the telemetry benchmark's target tool).",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: async () => ({ content: [{ type: "text", text: "echoed" }] }),
};

/** A provider that answers at once: a tool_search, then a tool_call of the target, then the answer. */
function scriptedProvider(): Provider {
  const call = (name: string, args: unknown): ConversationItem => ({
    type: "function_call",
    callId: `call_${name}`,
    name,
    arguments: JSON.stringify(args),
  });
  return {
    id: "bench",
    async complete(request: ProviderRequest): Promise<ProviderResponse> {
      const outputs = request.input.filter((item) => item.type === "function_call_output").length;
      const output: ConversationItem[] =
        outputs === 0
          ? [call("tool_search", { query: "echo a text back", limit: 3 })]
          : outputs === 1
            ? [call("tool_call", { id: "native:bench:bench_echo", args: { text: "hi" } })]
            : [{ type: "message", role: "assistant", text: "done" }];
      return { output, usage: { inputTokens: 10, outputTokens: 2 }, requestBytes: 100 };
    },
  };
}

const config: ToolsiftConfig = {
  models: {
    providers: { bench: { api: "openai-responses", baseUrl: "http://127.0.0.1:9/v1", maxRetries: 0 } },
  },
  agents: { defaults: { model: "bench/bench-model" } },
  tools: { toolSearch: { enabled: true, mode: "tools" } },
};

/** Registers a full SDK (batch processor, metrics reader) whose exporters drop what they get: the cost of recording. */
function registerSdk(sdk: Mode["sdk"]): (() => Promise<void>) | undefined {
  if (sdk === "none") return undefined;
  if (sdk === "context-only") {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    return async () => context.disable();
  }
  const dropSpans: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  const dropMetrics: PushMetricExporter = {
    export: (_metrics, done) => done({ code: 0 }),
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropSpans)] });
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 1_000 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return async () => {
    await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
  };
}

async function measureRound(mode: Mode, runner: Runner, runs: number, prefix: string): Promise<RoundCost> {
  const unregister = registerSdk(mode.sdk);
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let index = 0; index < runs; index += 1) {
      const result = await runner.run({
        agentId: "main",
        sessionKey: `${prefix}-${index}`,
        input: [{ type: "message", role: "user", text: "echo hi" }],
      });
      if (result.status !== "completed")
        throw new Error(`bench run ended ${result.status}: ${result.error?.code}`);
    }
    const wallUs = ((performance.now() - started) * 1000) / runs;
    const used = process.cpuUsage(cpu);
    return { cpuUs: (used.user + used.system) / runs, wallUs };
  } finally {
    await unregister?.();
  }
}

async function loadTree(name: string, srcDir: string): Promise<Tree> {
  const url = (file: string) => pathToFileURL(join(srcDir, file)).href;
  const runner = (await import(url("runner/index.ts"))) as Pick<Tree, "createRunner">;
  const sessions = (await import(url("sessions/index.ts"))) as Pick<Tree, "createFileSessionStore">;
  return { name, createRunner: runner.createRunner, createFileSessionStore: sessions.createFileSessionStore };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Per-run cost of the OpenTelemetry instrumentation, in process: runs of three provider requests (a
 * `tool_search`, a `tool_call` of a plugin tool, the answer) against an instant provider, the real file
 * session store, 500 catalog tools. Modes, interleaved round by round: `off` (instrumented, no SDK: the
 * default), `on` (an SDK registered with a batch processor and exporters that drop everything: the cost of
 * recording 7 spans and the metrics, no network), and between them the context manager alone (in Node 20
 * AsyncLocalStorage turns on promise hooks for every promise of the process). With `TELEMETRY_BASELINE=<path to another tree's src>` (a
 * tree without the instrumentation) its runs are measured too, for the "off is within noise" figure.
 */
export async function run(): Promise<Row[]> {
  const current = await loadTree("current", new URL("../src/", import.meta.url).pathname);
  const modes: Mode[] = [
    { label: "off (no SDK registered)", tree: current, sdk: "none" },
    { label: "context manager only (no tracer, no meter)", tree: current, sdk: "context-only" },
    { label: "on (SDK, exporters drop)", tree: current, sdk: "full" },
  ];
  const baseline = process.env.TELEMETRY_BASELINE;
  if (baseline)
    modes.unshift({
      label: "baseline tree (no instrumentation)",
      tree: await loadTree("baseline", resolve(baseline)),
      sdk: "none",
    });
  const root = await mkdtemp(join(tmpdir(), "toolsift-bench-telemetry-"));
  const tools = [TARGET, ...syntheticTools(CATALOG_TOOLS)];
  const runners = new Map<Mode, Runner>();
  const rounds = new Map<Mode, RoundCost[]>();
  try {
    for (const [index, mode] of modes.entries()) {
      const stateDir = join(root, `mode-${index}`);
      const runner = mode.tree.createRunner({
        environment: benchRunnerEnvironment(config, stateDir, mode.tree.createFileSessionStore(stateDir)),
        coreTools: false,
        extraTools: () => tools,
        createProvider: () => scriptedProvider(),
      });
      runners.set(mode, runner);
      rounds.set(mode, []);
      await measureRound(mode, runner, WARM_UP_RUNS, "warm");
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      // Every other round in reverse order, so no mode always runs right after another.
      const ordered = round % 2 === 0 ? modes : [...modes].reverse();
      for (const mode of ordered) {
        const runner = runners.get(mode) as Runner;
        rounds.get(mode)?.push(await measureRound(mode, runner, RUNS, `r${round}`));
      }
    }
  } finally {
    for (const runner of runners.values()) await runner.close(1_000);
    await rm(root, { recursive: true, force: true });
  }
  const rows: Row[] = modes.map((mode) => {
    const measured = rounds.get(mode) ?? [];
    const cpu = measured.map((cost) => cost.cpuUs);
    return {
      mode: mode.label,
      runs: RUNS * ROUNDS,
      cpuUsPerRun: Math.round(median(cpu)),
      wallUsPerRun: Math.round(median(measured.map((cost) => cost.wallUs))),
      cpuRoundsUs: cpu.map(Math.round),
    };
  });
  console.table(rows.map(({ cpuRoundsUs: _rounds, ...row }) => row));
  writeResults("telemetry", rows);
  return rows;
}

if (isEntryPoint(import.meta.url)) await run();
