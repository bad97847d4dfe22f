import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const SCRIPT = fileURLToPath(new URL("./released-signals.test-support.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

type Report = {
  released: { total: number; alive: number };
  unreleased: { total: number; alive: number };
  runs: number;
  statuses: string[];
  providerSignals: { total: number; alive: number };
  toolSignals: { total: number; alive: number };
  drainListeners: number;
};

// The measurement needs a forced GC, so it runs in a child started with --expose-gc (see the script).
test("a finished run's signals are garbage under a long-lived caller signal; an unreleased one is not", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "--import", "tsx", SCRIPT], {
    cwd: ROOT,
    timeout: 60_000,
  });
  const report = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Report;

  // The control: a signal nobody released is kept by its source's listener and its timer, and the WeakRef sees it.
  expect(report.unreleased).toEqual({ total: 4, alive: 4 });
  expect(report.released).toEqual({ total: 4, alive: 0 });
  // Real runs (tool call, then answer): two provider requests and one tool call each.
  expect(report.statuses).toEqual(Array.from({ length: report.runs }, () => "completed"));
  expect(report.providerSignals).toEqual({ total: report.runs * 2, alive: 0 });
  expect(report.toolSignals).toEqual({ total: report.runs, alive: 0 });
  // The long-lived signal holds no listener of a finished run.
  expect(report.drainListeners).toBe(0);
});
