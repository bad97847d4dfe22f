import { expect, test } from "vitest";
import { createExportReporter } from "./export-reporter.js";
import { EXPORT_FAILURE_QUIET_MS, MAX_EXPORT_ERROR_CHARS } from "./limits.js";

function reporterWithClock() {
  const lines: string[] = [];
  let time = 1_000_000;
  const reporter = createExportReporter({
    shownEndpoint: "http://collector:4318/",
    log: (line) => lines.push(line),
    now: () => time,
  });
  return { lines, reporter, advance: (ms: number) => (time += ms) };
}

test("the first failure is logged at once with what to check; more failures within the quiet time are counted, not logged", () => {
  const { lines, reporter, advance } = reporterWithClock();
  reporter.succeeded("traces");
  expect(lines).toEqual([]);
  reporter.failed("traces", Object.assign(new Error("Not Found"), { code: 404 }));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain("could not export traces to http://collector:4318/: Not Found (404)");
  expect(lines[0]).toContain("telemetry.otlp.endpoint");
  for (let index = 0; index < 5; index += 1) {
    advance(1_000);
    reporter.failed("metrics", new Error("connect ECONNREFUSED"));
  }
  expect(lines).toHaveLength(1);
  advance(EXPORT_FAILURE_QUIET_MS);
  reporter.failed("metrics", new Error("connect ECONNREFUSED", { cause: { code: "ECONNREFUSED" } }));
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(
    /^telemetry: 6 more exports to http:\/\/collector:4318\/ failed in the last 65 s \(last: metrics, connect ECONNREFUSED \(ECONNREFUSED\)\)$/u,
  );
});

test("a success after failures is logged once, and the next failure is logged at once again", () => {
  const { lines, reporter } = reporterWithClock();
  reporter.failed("traces", new Error("Service Unavailable"));
  reporter.failed("traces", new Error("Service Unavailable"));
  reporter.succeeded("traces");
  reporter.succeeded("metrics");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe(
    "telemetry: exporting to http://collector:4318/ works again (traces; 2 exports failed before)",
  );
  reporter.failed("metrics", undefined);
  expect(lines).toHaveLength(3);
  expect(lines[2]).toContain(
    "could not export metrics to http://collector:4318/: the exporter gave no reason.",
  );
});

test("a long or many-line reason is quoted short, on one line", () => {
  const { lines, reporter } = reporterWithClock();
  reporter.failed("traces", new Error(`bad\n${"x".repeat(5_000)}`));
  const quoted = /: (bad x+\.\.\.)\. Check/u.exec(lines[0] ?? "")?.[1] ?? "";
  expect(quoted.length).toBe(MAX_EXPORT_ERROR_CHARS);
  expect(lines[0]).not.toContain("\n");
});
