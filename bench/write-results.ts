import { mkdirSync, writeFileSync } from "node:fs";

/** Writes a benchmark's rows to `bench/results/<name>.json` (2-space JSON, trailing newline). */
export function writeResults(name: string, rows: unknown): void {
  const directory = new URL("./results/", import.meta.url);
  mkdirSync(directory, { recursive: true });
  writeFileSync(new URL(`${name}.json`, directory), `${JSON.stringify(rows, null, 2)}\n`);
}
