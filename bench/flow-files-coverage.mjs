// Preload for bench/flow-files.ts: `node --import ./bench/flow-files-coverage.mjs …` turns on V8 precise
// coverage (call counts, function granularity) before the program's first module loads. On each SIGUSR2 it
// takes the coverage, which also sets every count back to zero, and writes the scripts loaded from files
// to `<FLOW_FILES_COVERAGE_DIR>/coverage-<n>.json` (n = 1, 2, …; written to a temporary name and renamed,
// so a reader never sees half a file). A take therefore holds exactly the calls made since the previous one.
import { renameSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";

const directory = process.env.FLOW_FILES_COVERAGE_DIR;
if (directory) {
  const session = new Session();
  session.connect();
  /** One inspector command, as a promise. */
  const post = (method, params) =>
    new Promise((resolve, reject) => {
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result)));
    });
  post("Profiler.enable");
  post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  let taken = 0;
  process.on("SIGUSR2", () => {
    taken += 1;
    const file = join(directory, `coverage-${taken}.json`);
    post("Profiler.takePreciseCoverage").then(
      (coverage) => {
        const scripts = coverage.result.filter((script) => script.url.startsWith("file:"));
        writeFileSync(`${file}.part`, JSON.stringify(scripts));
        renameSync(`${file}.part`, file);
      },
      (error) => {
        writeFileSync(`${file}.part`, JSON.stringify({ error: String(error) }));
        renameSync(`${file}.part`, file);
      },
    );
  });
}
