import { run as runLatency } from "./latency.js";
import { run as runQuality } from "./quality.js";

/** Benchmarks by name; `npm run bench` runs them all, `npm run bench -- quality` one of them. */
const BENCHMARKS: Readonly<Record<string, () => void>> = {
  quality: () => runQuality(),
  latency: () => runLatency(),
};

const wanted = process.argv.slice(2).filter((name) => !name.startsWith("-"));
const unknown = wanted.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`Unknown benchmark: ${unknown.join(", ")}. Known: ${Object.keys(BENCHMARKS).join(", ")}.`);
  process.exit(1);
}
for (const name of wanted.length > 0 ? wanted : Object.keys(BENCHMARKS)) {
  console.log(`\n## ${name}\n`);
  BENCHMARKS[name]!();
}
