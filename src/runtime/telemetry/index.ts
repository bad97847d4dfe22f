export { errorTypeOf, markSpanFailed } from "./error-type.js";
export {
  DEFAULT_METRIC_EXPORT_INTERVAL_MS,
  DEFAULT_SPAN_EXPORT_DELAY_MS,
  MAX_CAPTURED_CONTENT_CHARS,
} from "./limits.js";
export {
  Attribute,
  chatSpanName,
  executeToolSpanName,
  invokeAgentSpanName,
  MCP_TOOLS_CALL,
  Metric,
  mcpToolsCallSpanName,
  Operation,
} from "./semantic-names.js";
export {
  type ConfiguredTelemetryOptions,
  startConfiguredTelemetry,
  type TelemetryConfig,
} from "./start-configured-telemetry.js";
export type { RunningTelemetry, TelemetryExportOptions } from "./start-telemetry.js";
export { SERVICE_NAME } from "./start-telemetry.js";
export {
  activeInstruments,
  activeTracer,
  INSTRUMENTATION_NAME,
  type Instruments,
  telemetryOn,
} from "./telemetry-on.js";
export { setTelemetrySettings, type TelemetrySettings, telemetrySettings } from "./telemetry-settings.js";
export {
  extractTraceContext,
  injectTraceContext,
  type TraceCarrier,
  withIncomingTrace,
} from "./trace-context-carrier.js";
export { type McpCallSpanInput, traceMcpClientCall, traceMcpServerCall } from "./trace-mcp-call.js";
export { traceProvider } from "./trace-provider.js";
export { type RunSpanInput, type RunSpanOutcome, traceRun } from "./trace-run.js";
export { type ToolSpanInput, type ToolSpanOutcome, traceToolCall } from "./trace-tool-call.js";
