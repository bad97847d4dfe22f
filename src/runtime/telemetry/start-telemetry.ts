// Loaded only when an OTLP endpoint is configured (`startConfiguredTelemetry` imports it lazily): the SDK
// packages below never load for a gateway or `mcp serve` without telemetry, nor for the library.
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import type { ExportResult } from "@opentelemetry/core";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { ExportReporter } from "./export-reporter.js";
import { DEFAULT_METRIC_EXPORT_TIMEOUT_MS } from "./limits.js";

/** `service.name` of the resource the gateway and `mcp serve` export under. */
const SERVICE_NAME = "toolsift";

/** Where and how often to export (resolved by `startConfiguredTelemetry`). */
export interface TelemetryExportOptions {
  /** The OTLP/HTTP base URL; `/v1/traces` and `/v1/metrics` are appended. */
  endpoint: string;
  /** Headers sent with every export (a collector's auth). Default none. */
  headers?: Record<string, string>;
  /** Longest a finished span waits before its batch is sent, in ms. */
  spanExportDelayMs: number;
  /** Metric export interval, in ms. */
  metricExportIntervalMs: number;
  /** Told each export's outcome (failures are otherwise silent). Default: nobody. */
  reporter?: ExportReporter;
}

/** Registered telemetry; `shutdown` flushes what is pending and unregisters it. */
export interface RunningTelemetry {
  shutdown(): Promise<void>;
}

/**
 * Registers the OpenTelemetry SDK globally: a tracer provider with a batch processor and the OTLP/HTTP
 * (JSON) trace exporter, a meter provider with a periodic OTLP/HTTP metric reader, the AsyncLocalStorage
 * context manager (so spans nest across `await`) and the W3C trace context propagator; `service.name`
 * `toolsift`.
 */
export function startTelemetry(options: TelemetryExportOptions): RunningTelemetry {
  const base = options.endpoint.replace(/\/+$/u, "");
  const headers = options.headers ?? {};
  const resource = resourceFromAttributes({ "service.name": SERVICE_NAME });
  const reporter = options.reporter;
  const traceExporter = new OTLPTraceExporter({ url: `${base}/v1/traces`, headers });
  const metricExporter = new OTLPMetricExporter({ url: `${base}/v1/metrics`, headers });
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor(
        reporter ? reportingExporter(traceExporter, "traces", reporter) : traceExporter,
        {
          scheduledDelayMillis: options.spanExportDelayMs,
        },
      ),
    ],
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: reporter ? reportingExporter(metricExporter, "metrics", reporter) : metricExporter,
        exportIntervalMillis: options.metricExportIntervalMs,
        exportTimeoutMillis: Math.min(DEFAULT_METRIC_EXPORT_TIMEOUT_MS, options.metricExportIntervalMs),
      }),
    ],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  let stopping: Promise<void> | undefined;
  return {
    shutdown() {
      stopping ??= (async () => {
        // Flushes the last batch and the last metric collection before unregistering.
        await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
        trace.disable();
        metrics.disable();
        propagation.disable();
        context.disable();
      })();
      return stopping;
    },
  };
}

/** What both OTLP exporters have: `export(items, done)`. */
type Exporter<Items> = { export(items: Items, done: (result: ExportResult) => void): void };

/** ExportResultCode.SUCCESS (a const enum upstream, so it cannot be imported as a value). */
const SUCCESS = 0;

/**
 * `exporter` with each export's outcome told to `reporter`; everything else (shutdown, flush, the metric
 * exporter's temporality and aggregation choices) is the exporter's own, called on it. A reporter that
 * throws changes nothing of the export.
 */
export function reportingExporter<Items, T extends Exporter<Items>>(
  exporter: T,
  signal: "traces" | "metrics",
  reporter: ExportReporter,
): T {
  const exportReported = (items: Items, done: (result: ExportResult) => void) =>
    exporter.export(items, (result) => {
      try {
        if (result.code === SUCCESS) reporter.succeeded(signal);
        else reporter.failed(signal, result.error);
      } catch {
        // Reporting is a courtesy: the export's result goes back as it came.
      }
      done(result);
    });
  return new Proxy(exporter, {
    get(target, property) {
      if (property === "export") return exportReported;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
