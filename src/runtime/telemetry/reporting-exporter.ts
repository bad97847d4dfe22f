import type { ExportResult } from "@opentelemetry/core";
import type { ExportReporter } from "./export-reporter.js";

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
