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

/** While exports keep failing, at most one log line per this many ms (the first failure is logged at once). */
export const EXPORT_FAILURE_QUIET_MS = 60_000;

/** Longest export error quoted in the log. */
export const MAX_EXPORT_ERROR_CHARS = 200;
