import { ToolsiftError } from "../../shared/errors/index.js";
import { installCommandFor } from "../optional-packages/index.js";
import { createExportReporter } from "./export-reporter.js";
import { DEFAULT_METRIC_EXPORT_INTERVAL_MS, DEFAULT_SPAN_EXPORT_DELAY_MS } from "./limits.js";
import type { RunningTelemetry } from "./start-telemetry.js";
import { setTelemetrySettings } from "./telemetry-settings.js";

/** `telemetry` in the config file (see ToolsiftConfig). */
export interface TelemetryConfig {
  otlp?: { endpoint?: string; headers?: Record<string, string> };
  captureToolContent?: boolean;
}

/** What `startConfiguredTelemetry` reads. */
export interface ConfiguredTelemetryOptions {
  /** The config's `telemetry` section. Default: none. */
  config?: TelemetryConfig;
  /** Default `process.env`: `OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_METRIC_EXPORT_INTERVAL`, `OTEL_SDK_DISABLED`. */
  env?: NodeJS.ProcessEnv;
  log?(line: string): void;
}

/**
 * Starts exporting traces and metrics when an OTLP endpoint is configured (`telemetry.otlp.endpoint`, else
 * `OTEL_EXPORTER_OTLP_ENDPOINT`) and `OTEL_SDK_DISABLED` is not `true`; the SDK is imported only then.
 * Resolves with undefined (nothing loaded, nothing registered) otherwise.
 */
export async function startConfiguredTelemetry(
  options: ConfiguredTelemetryOptions,
): Promise<RunningTelemetry | undefined> {
  const env = options.env ?? process.env;
  const config = options.config ?? {};
  const endpoint = config.otlp?.endpoint ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (endpoint === undefined || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  setTelemetrySettings({ captureToolContent: config.captureToolContent === true });
  const { startTelemetry } = await importTelemetrySdk();
  const protocol = nonEmpty(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  if (protocol !== undefined && protocol !== "http/json")
    options.log?.(`telemetry: OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported; sending http/json`);
  const running = startTelemetry({
    endpoint,
    ...(config.otlp?.headers ? { headers: config.otlp.headers } : {}),
    spanExportDelayMs: positiveInteger(env.OTEL_BSP_SCHEDULE_DELAY) ?? DEFAULT_SPAN_EXPORT_DELAY_MS,
    metricExportIntervalMs:
      positiveInteger(env.OTEL_METRIC_EXPORT_INTERVAL) ?? DEFAULT_METRIC_EXPORT_INTERVAL_MS,
    ...(options.log
      ? { reporter: createExportReporter({ shownEndpoint: shownEndpoint(endpoint), log: options.log }) }
      : {}),
  });
  options.log?.(`telemetry: exporting traces and metrics over OTLP/HTTP to ${shownEndpoint(endpoint)}`);
  return running;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function positiveInteger(value: string | undefined): number | undefined {
  const number = Number(value);
  return value !== undefined && Number.isInteger(number) && number > 0 ? number : undefined;
}

/** The endpoint without credentials or a query (either may hold a token). */
function shownEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.origin}${url.pathname}`;
  } catch {
    return "(an endpoint that is not a URL)";
  }
}

/**
 * The OpenTelemetry SDK packages: optional peer dependencies of the package (a library user who exports no
 * traces does not install them), listed with the versions toolsift is tested with.
 */
export const TELEMETRY_SDK_PACKAGES = [
  "@opentelemetry/context-async-hooks@2.12.0",
  "@opentelemetry/core@2.12.0",
  "@opentelemetry/exporter-metrics-otlp-http@0.223.0",
  "@opentelemetry/exporter-trace-otlp-http@0.223.0",
  "@opentelemetry/resources@2.12.0",
  "@opentelemetry/sdk-metrics@2.12.0",
  "@opentelemetry/sdk-trace-base@2.12.0",
] as const;

/** Loads start-telemetry.ts; a missing SDK package is a ToolsiftError naming what to install. */
async function importTelemetrySdk(): Promise<typeof import("./start-telemetry.js")> {
  try {
    return await import("./start-telemetry.js");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    if (code !== "ERR_MODULE_NOT_FOUND" || !message.includes("@opentelemetry/")) throw error;
    throw new ToolsiftError(
      "CONFIG_INVALID",
      `An OTLP endpoint is set (telemetry.otlp.endpoint or OTEL_EXPORTER_OTLP_ENDPOINT), but the OpenTelemetry SDK is not installed (${message.split("\n")[0]}). Install it next to toolsift (${installCommandFor(TELEMETRY_SDK_PACKAGES.map(optionalPackage))}), or remove the endpoint.`,
    );
  }
}

/** `name@version` as an OptionalPackage (the name of a scoped package starts with its `@`). */
function optionalPackage(spec: string): { name: string; version: string } {
  const at = spec.lastIndexOf("@");
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}
