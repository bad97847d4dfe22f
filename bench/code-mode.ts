import { setTimeout as delay } from "node:timers/promises";
import { createToolSearch, type ToolSearch } from "../src/core/tool-search/index.js";
import { CellChild } from "../src/runtime/code-mode/cell-child.js";
import { cellChildLaunch } from "../src/runtime/code-mode/child-launch.js";
import { createCodeMode } from "../src/runtime/code-mode/index.js";
import { resolveCodeModeLimits } from "../src/runtime/code-mode/resolve-code-mode-limits.js";
import { isEntryPoint } from "./entry-point.js";
import { writeResults } from "./write-results.js";

/** Cold starts measured (each a fresh child, one after the other). */
const COLD_RUNS = 10;
/** Warm starts measured (each with the pool's child already loaded). */
const WARM_RUNS = 20;
/** Time given to the pool to replace the used child before the next warm start. */
const REFILL_WAIT_MS = 600;
/** Sequential bridge calls in the round-trip cell. */
const ROUND_TRIPS = 1_000;
/** Targets from qa-and-bench.md. */
const WARM_TARGET_MS = 20;
const ROUND_TRIP_TARGET_MS = 1;

type Row = {
  measure: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  targetMs?: number;
  met?: boolean;
};

/** Cell start-up (cold and warm) and the bridge round trip per call, as a table and bench/results/code-mode.json. */
export async function run(): Promise<void> {
  const rows: Row[] = [
    summarize("cold start: spawn to ready", await coldStarts("ready")),
    summarize("cold start: spawn to a cell's value", await coldStarts("value")),
    summarize("warm start: exec to a cell's value", await warmStarts(), WARM_TARGET_MS),
    summarize("bridge round trip (stub ToolSearch)", await roundTrips(stubToolSearch), ROUND_TRIP_TARGET_MS),
    summarize("bridge round trip (tools.describe, real ToolSearch)", await roundTrips(realToolSearch)),
  ];
  console.table(
    rows.map((row) => ({
      measure: row.measure,
      runs: row.runs,
      "median ms": row.medianMs.toFixed(3),
      "p95 ms": row.p95Ms.toFixed(3),
      target: row.targetMs === undefined ? "" : `≤ ${row.targetMs} ms`,
      met: row.met === undefined ? "" : row.met ? "yes" : "no",
    })),
  );
  writeResults("code-mode", { node: process.version, rows });
}

async function coldStarts(until: "ready" | "value"): Promise<number[]> {
  const limits = resolveCodeModeLimits({});
  const launch = await cellChildLaunch(limits);
  const times: number[] = [];
  for (let index = 0; index < COLD_RUNS; index += 1) {
    const start = performance.now();
    const child = new CellChild(launch);
    child.claim();
    await child.ready;
    if (until === "value") {
      await child.run({
        source: "return 1;",
        timeoutMs: limits.timeoutMs,
        maxBridgeCalls: 1,
        maxLogBytes: limits.maxLogBytes,
        bridge: async () => ({ ok: false, error: { code: "INTERNAL", message: "no bridge" } }),
      });
    } else {
      child.stop({ code: "CLOSED", message: "measured" });
    }
    times.push(performance.now() - start);
    await child.exited;
  }
  return times;
}

async function warmStarts(): Promise<number[]> {
  const codeMode = createCodeMode({ toolSearch: createToolSearch({ tools: [], codeModeEnabled: true }) });
  const times: number[] = [];
  try {
    for (let index = 0; index < WARM_RUNS + 1; index += 1) {
      await delay(REFILL_WAIT_MS);
      const start = performance.now();
      const outcome = await codeMode.exec("return 1;");
      if (outcome.status !== "completed") throw new Error(`warm cell failed: ${JSON.stringify(outcome)}`);
      if (index > 0) times.push(performance.now() - start);
    }
  } finally {
    await codeMode.close();
  }
  return times;
}

/** A ToolSearch whose search answers at once and notes when each bridge call reached the parent. */
function stubToolSearch(arrivals: number[]): { toolSearch: ToolSearch; source: string } {
  const toolSearch = {
    enabled: false,
    modelTools: () => [],
    search: () => {
      arrivals.push(performance.now());
      return [];
    },
    describe: () => ({}),
    call: async () => ({}),
  } as unknown as ToolSearch;
  return {
    toolSearch,
    source: `for (let i = 0; i < ${ROUND_TRIPS}; i++) await tools.search("x"); return 1;`,
  };
}

/** A real ToolSearch over 200 tools; each bridge call is a tools.describe. */
function realToolSearch(arrivals: number[]): { toolSearch: ToolSearch; source: string } {
  const tools = Array.from({ length: 200 }, (_, index) => ({
    name: `tool_${index}`,
    description: `Tool number ${index}.`,
    parameters: { type: "object", properties: { text: { type: "string" } } },
    execute: async () => ({ content: [] }),
  }));
  const inner = createToolSearch({ tools, codeModeEnabled: true });
  const toolSearch = Object.create(inner, {
    describe: {
      value: (id: string) => {
        arrivals.push(performance.now());
        return inner.describe(id);
      },
    },
  }) as ToolSearch;
  return {
    toolSearch,
    source: `for (let i = 0; i < ${ROUND_TRIPS}; i++) await tools.describe("tool_42"); return 1;`,
  };
}

/** Gaps between consecutive bridge calls of one sequential cell: each is one full round trip. */
async function roundTrips(
  make: (arrivals: number[]) => { toolSearch: ToolSearch; source: string },
): Promise<number[]> {
  const arrivals: number[] = [];
  const { toolSearch, source } = make(arrivals);
  const codeMode = createCodeMode({ toolSearch, maxBridgeCalls: ROUND_TRIPS, timeoutMs: 60_000 });
  try {
    const outcome = await codeMode.exec(source);
    if (outcome.status !== "completed") throw new Error(`round-trip cell failed: ${JSON.stringify(outcome)}`);
  } finally {
    await codeMode.close();
  }
  return arrivals.slice(1).map((time, index) => time - (arrivals[index] as number));
}

function summarize(measure: string, times: number[], targetMs?: number): Row {
  const sorted = [...times].sort((left, right) => left - right);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const medianMs = at(0.5);
  return {
    measure,
    runs: times.length,
    medianMs,
    p95Ms: at(0.95),
    ...(targetMs === undefined ? {} : { targetMs, met: medianMs <= targetMs }),
  };
}

if (isEntryPoint(import.meta.url)) await run();
