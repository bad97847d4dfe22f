import type { ScenarioReport } from "./types.js";

/**
 * The scenario's table: one row per lane, then every failure. "cached prefix bytes" (Anthropic lanes) is the
 * size of the prompt-cache prefix (tools and system prompt) of the lane's last request, "-" elsewhere.
 */
export function formatScenarioReport(report: ScenarioReport): string {
  const header = [
    "lane",
    "declared tools",
    "request bytes",
    "cached prefix bytes",
    "prompt chars",
    "searches",
    "describes",
    "calls",
    "wall ms",
    "result",
  ];
  const rows = report.lanes.map((lane) => [
    lane.lane,
    String(lane.declaredTools),
    String(lane.requestBytes),
    lane.cache ? String(lane.cache.prefixBytes) : "-",
    String(lane.systemPromptChars),
    String(lane.searches),
    String(lane.describes),
    String(lane.calls),
    String(lane.wallMs),
    lane.failures.length === 0 ? "ok" : "FAILED",
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  const lines = [
    `${report.scenario} (provider: ${report.providerMode})`,
    line(header),
    line(widths.map((width) => "-".repeat(width))),
    ...rows.map(line),
  ];
  const failures = [
    ...report.lanes.flatMap((lane) => lane.failures.map((failure) => `${lane.lane}: ${failure}`)),
    ...report.comparisons,
  ];
  lines.push(
    "",
    failures.length === 0 ? "All assertions passed." : `${failures.length} assertion(s) failed:`,
  );
  for (const failure of failures) lines.push(`  - ${failure}`);
  return `${lines.join("\n")}\n`;
}
