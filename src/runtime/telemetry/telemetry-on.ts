import {
  createNoopMeter,
  type Histogram,
  type Meter,
  metrics,
  ProxyTracerProvider,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { Metric } from "./semantic-names.js";

/** Explicit histogram buckets for operation durations in seconds (the GenAI conventions' advice). */
const DURATION_BUCKETS_SECONDS: readonly number[] = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/** Explicit histogram buckets for `gen_ai.client.token.usage` (the GenAI conventions' advice). */
const TOKEN_USAGE_BUCKETS: readonly number[] = [
  1, 4, 16, 64, 256, 1_024, 4_096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216, 67_108_864,
];

/** The instrumentation scope (tracer and meter name) and the `service.name` of the gateway and `mcp serve`. */
const INSTRUMENTATION_NAME = "toolsift";

/** What `trace.getTracerProvider()` delegates to while no SDK is registered (this copy of the API's no-op). */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const NOOP_METER = createNoopMeter();

let cachedProvider: TracerProvider | undefined;
let cachedTracer: Tracer | undefined;

/**
 * The tracer of toolsift's spans, or undefined while no tracer provider is registered: callers then skip
 * building spans and attributes altogether, so instrumentation costs a few property reads when off.
 */
export function activeTracer(): Tracer | undefined {
  const global = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
  const provider = typeof global.getDelegate === "function" ? global.getDelegate() : global;
  if (provider === NOOP_TRACER_PROVIDER) return undefined;
  if (provider !== cachedProvider) {
    cachedProvider = provider;
    cachedTracer = provider.getTracer(INSTRUMENTATION_NAME);
  }
  return cachedTracer;
}

/** The metric instruments toolsift records to. */
export interface Instruments {
  /** `gen_ai.client.operation.duration` (s): runs and provider requests. */
  operationDuration: Histogram;
  /** `gen_ai.client.token.usage` ({token}), one record per token type. */
  tokenUsage: Histogram;
  /** `gen_ai.execute_tool.duration` (s): tool calls. */
  toolDuration: Histogram;
  /** `toolsift.search.duration` (s): `tool_search` calls. */
  searchDuration: Histogram;
  /** `toolsift.search.hits` ({candidate}): candidates one `tool_search` returned. */
  searchHits: Histogram;
}

let cachedMeter: Meter | undefined;
let cachedInstruments: Instruments | undefined;

/** The instruments on the registered meter provider, or undefined while none is registered. */
export function activeInstruments(): Instruments | undefined {
  const meter = metrics.getMeter(INSTRUMENTATION_NAME);
  if (meter === NOOP_METER) return undefined;
  if (meter !== cachedMeter || cachedInstruments === undefined) {
    cachedMeter = meter;
    cachedInstruments = createInstruments(meter);
  }
  return cachedInstruments;
}

/** True when spans or metrics are recorded somewhere: the one check on every instrumented path. */
export function telemetryOn(): boolean {
  return activeTracer() !== undefined || activeInstruments() !== undefined;
}

function createInstruments(meter: Meter): Instruments {
  const seconds = { unit: "s", advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_SECONDS] } };
  return {
    operationDuration: meter.createHistogram(Metric.operationDuration, {
      description: "Duration of GenAI operations (agent runs, provider requests).",
      ...seconds,
    }),
    tokenUsage: meter.createHistogram(Metric.tokenUsage, {
      description: "Input and output tokens used per provider request.",
      unit: "{token}",
      advice: { explicitBucketBoundaries: [...TOKEN_USAGE_BUCKETS] },
    }),
    toolDuration: meter.createHistogram(Metric.toolDuration, {
      description: "Duration of tool calls.",
      ...seconds,
    }),
    searchDuration: meter.createHistogram(Metric.searchDuration, {
      description: "Duration of tool_search calls.",
      ...seconds,
    }),
    searchHits: meter.createHistogram(Metric.searchHits, {
      description: "Candidates returned by one tool_search call.",
      unit: "{candidate}",
    }),
  };
}

/** Seconds since `startedMs` (a `performance.now()` reading), for duration histograms. */
export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}
