import { cutText } from "../../shared/text/index.js";
import { EXPORT_FAILURE_QUIET_MS, MAX_EXPORT_ERROR_CHARS } from "./limits.js";

/** What an exporter reports about each export. */
export interface ExportReporter {
  failed(signal: "traces" | "metrics", error: unknown): void;
  succeeded(signal: "traces" | "metrics"): void;
}

/** Options of createExportReporter. */
export interface ExportReporterOptions {
  /** The endpoint as it may be shown (no credentials, no query). */
  shownEndpoint: string;
  log(line: string): void;
  /** The clock, in ms. Default `Date.now`. */
  now?: () => number;
}

/**
 * Turns export outcomes into a few log lines: the first failure at once (with what to check), then at most
 * one line per EXPORT_FAILURE_QUIET_MS while exports keep failing (how many failed meanwhile, and the last
 * reason), and one line when an export succeeds again. Spans and metrics are exported whatever this says:
 * a collector that is down costs the batches it missed, never a run.
 */
export function createExportReporter(options: ExportReporterOptions): ExportReporter {
  const now = options.now ?? Date.now;
  let failing = false;
  let lastLineAt = 0;
  let unreported = 0;
  let failures = 0;

  return {
    failed(signal, error) {
      failures += 1;
      const reason = reasonOf(error);
      if (!failing) {
        failing = true;
        lastLineAt = now();
        unreported = 0;
        options.log(
          `telemetry: could not export ${signal} to ${options.shownEndpoint}: ${reason}. Check that the collector is running and that telemetry.otlp.endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT) is its OTLP/HTTP address; runs go on, the spans and metrics of failed exports are dropped.`,
        );
        return;
      }
      unreported += 1;
      if (now() - lastLineAt < EXPORT_FAILURE_QUIET_MS) return;
      options.log(
        `telemetry: ${unreported} more exports to ${options.shownEndpoint} failed in the last ${Math.round((now() - lastLineAt) / 1000)} s (last: ${signal}, ${reason})`,
      );
      lastLineAt = now();
      unreported = 0;
    },
    succeeded(signal) {
      if (!failing) return;
      options.log(
        `telemetry: exporting to ${options.shownEndpoint} works again (${signal}; ${failures} exports failed before)`,
      );
      failing = false;
      failures = 0;
      unreported = 0;
    },
  };
}

function reasonOf(error: unknown): string {
  const message =
    error instanceof Error
      ? `${error.message}${codeOf(error)}`
      : error === undefined
        ? "the exporter gave no reason"
        : String(error);
  return cutText(
    message.replace(/\s+/gu, " ").trim() || "the exporter gave no reason",
    MAX_EXPORT_ERROR_CHARS,
  );
}

/** The exporter's HTTP status or the system error code, when the error carries one. */
function codeOf(error: Error): string {
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (typeof code === "number" || typeof code === "string") return ` (${code})`;
  const causeCode = (cause as { code?: unknown } | undefined)?.code;
  return typeof causeCode === "string" ? ` (${causeCode})` : "";
}
