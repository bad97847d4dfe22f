/** The instrumentation scope (tracer and meter name) and the `service.name` of the gateway and `mcp serve`. */
export const INSTRUMENTATION_NAME = "toolsift";

/** `service.name` of the resource the gateway and `mcp serve` export under. */
export const SERVICE_NAME = "toolsift";

/** Batch span processor delay when `OTEL_BSP_SCHEDULE_DELAY` is unset (the OpenTelemetry default), in ms. */
export const DEFAULT_SPAN_EXPORT_DELAY_MS = 5_000;

/** Metric export interval when `OTEL_METRIC_EXPORT_INTERVAL` is unset (the OpenTelemetry default), in ms. */
export const DEFAULT_METRIC_EXPORT_INTERVAL_MS = 60_000;

/** Longest a metric export may take (the OpenTelemetry default), capped at the interval, in ms. */
export const DEFAULT_METRIC_EXPORT_TIMEOUT_MS = 30_000;

/** Longest captured tool argument or result text on a span (opt-in `telemetry.captureToolContent`). */
export const MAX_CAPTURED_CONTENT_CHARS = 4_000;

/** Longest block reason (from a policy, hook or approval) kept on a span. */
export const MAX_REASON_CHARS = 200;

/** Explicit histogram buckets for `gen_ai.client.token.usage` (the GenAI conventions' advice). */
export const TOKEN_USAGE_BUCKETS: readonly number[] = [
  1, 4, 16, 64, 256, 1_024, 4_096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216, 67_108_864,
];

/** Explicit histogram buckets for operation durations in seconds (the GenAI conventions' advice). */
export const DURATION_BUCKETS_SECONDS: readonly number[] = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/** While exports keep failing, at most one log line per this many ms (the first failure is logged at once). */
export const EXPORT_FAILURE_QUIET_MS = 60_000;

/** Longest export error quoted in the log. */
export const MAX_EXPORT_ERROR_CHARS = 200;
