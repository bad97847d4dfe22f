/** Process-wide choices of the instrumentation (set when the gateway or `mcp serve` starts telemetry). */
export interface TelemetrySettings {
  /**
   * Put tool call arguments and result text on `execute_tool` spans (`gen_ai.tool.call.arguments` /
   * `gen_ai.tool.call.result`), redacted like the session log. Default false: they may hold personal data.
   */
  captureToolContent: boolean;
}

let current: TelemetrySettings = { captureToolContent: false };

/** The settings in force (defaults until `setTelemetrySettings`). */
export function telemetrySettings(): TelemetrySettings {
  return current;
}

/** Replaces the settings in force; a library user who registers their own SDK may call it too. */
export function setTelemetrySettings(settings: Partial<TelemetrySettings>): void {
  current = { ...current, ...settings };
}
