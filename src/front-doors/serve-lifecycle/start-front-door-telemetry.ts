import {
  type ConfiguredTelemetryOptions,
  type RunningTelemetry,
  startConfiguredTelemetry,
} from "../../runtime/telemetry/index.js";

/** A front door's telemetry, stopped only after the front door itself. */
export type FrontDoorTelemetry = {
  /**
   * Runs `close` (the server stopped listening, the last run or session flushed), then shuts telemetry down,
   * so the spans and metrics of that last work are exported. Telemetry is shut down even when `close` throws;
   * its error is rethrown. Later calls return the first call's promise.
   */
  stopAfter(close: () => Promise<void>): Promise<void>;
};

/**
 * The one telemetry start and stop order of every front door (`toolsift gateway`, `toolsift mcp serve`):
 * started once the start checks passed and before the server listens (or the stdio session opens), so the
 * first request is traced; stopped through `stopAfter`, after the server closed and its last work flushed.
 * Traces and metrics go over OTLP/HTTP when an endpoint is configured; otherwise nothing loads and
 * `stopAfter` only runs `close`.
 */
export async function startFrontDoorTelemetry(
  options: ConfiguredTelemetryOptions,
): Promise<FrontDoorTelemetry> {
  const running: RunningTelemetry | undefined = await startConfiguredTelemetry(options);
  let stopping: Promise<void> | undefined;
  return {
    stopAfter(close) {
      stopping ??= (async () => {
        try {
          await close();
        } finally {
          await running?.shutdown();
        }
      })();
      return stopping;
    },
  };
}
