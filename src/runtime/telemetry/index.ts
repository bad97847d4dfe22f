export { type ConfiguredTelemetryOptions, startConfiguredTelemetry } from "./start-configured-telemetry.js";
export type { RunningTelemetry } from "./start-telemetry.js";
export { activeTracer, telemetryOn } from "./telemetry-on.js";
export { telemetrySettings } from "./telemetry-settings.js";
export { withIncomingTrace } from "./trace-context-carrier.js";
export { traceMcpClientCall, traceMcpServerCall } from "./trace-mcp-call.js";
export { traceProvider } from "./trace-provider.js";
export { traceRun } from "./trace-run.js";
export { type ToolSpanOutcome, traceToolCall } from "./trace-tool-call.js";
