import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { isEntryPoint } from "./entry-point.js";
import { writeResults } from "./write-results.js";

/** Timed runs of each command (the median is reported), after WARM_UP_RUNS untimed ones (disk cache). */
const TIMED_RUNS = 21;
const WARM_UP_RUNS = 2;
/** Startup goals, in ms over a bare `node -e 0` started in the same run. */
const ENTRY_GOAL_MS_OVER_BARE = 150;
const SEARCH_GOAL_MS_OVER_BARE = 300;
/** Packages the library entry must not load; for the CLI commands the bench says which load. */
const HEAVY_PACKAGES = [
  "zod",
  "json5",
  "openai",
  "@modelcontextprotocol/sdk",
  "hono",
  "@hono/node-server",
  "commander",
  "quickjs-emscripten",
] as const;

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI_ENTRY = join(ROOT, "dist/front-doors/cli/main.js");
/** The package's "." export: one ES module bundled from src/index.ts (scripts/bundle-library-entry.mjs). */
const LIBRARY_ENTRY = join(ROOT, "dist/index.js");
/** What tsc's own `dist/index.js` imports (src/index.ts's three folders), for the bundle's side-by-side row. */
const UNBUNDLED_ENTRY_FOLDERS = ["runtime/code-mode", "shared/errors", "core/tool-search"].map((folder) =>
  join(ROOT, "dist", folder, "index.js"),
);
const TRACE_PRELOAD = fileURLToPath(new URL("./startup-trace.mjs", import.meta.url));
/** The README's search example. */
const SEARCH_ARGS = ["search", "--catalog", "examples/catalog.json", "look up the price of bitcoin"];

type Measured = {
  measured: string;
  /** The node arguments after `node`. */
  args: string[];
  goalMsOverBare?: number;
};

type Row = {
  measured: string;
  command: string;
  medianMs: number;
  /** Fastest and slowest timed run, to show the spread. */
  minMs: number;
  maxMs: number;
  msOverBare: number;
  goalMsOverBare?: number;
  met?: boolean;
  /** Files loaded (ESM and CommonJS, node builtins excluded), from a separate traced run. */
  modules: number;
  /** Which of HEAVY_PACKAGES were loaded. */
  heavyLoaded: string[];
  /** For each heavy package loaded: the import chain from the entry to its first module (importer first). */
  heavyChains: Record<string, string[]>;
};

/**
 * Start-up cost of the library entry and the CLI, measured side by side in one run against a bare
 * `node -e 0`, with the library entry unbundled (the same modules as tsc emits them) beside the bundle
 * the package ships: each command is a child process (`process.execPath`), timed from spawn to exit, run
 * WARM_UP_RUNS times untimed and then TIMED_RUNS times, the commands taking turns so drift hits them alike.
 * The modules each command loads are counted in one more run with the `startup-trace.mjs` preload (an ESM
 * resolve hook plus a `Module._load` wrapper; see that file). Reads the build: run `npm run build` first.
 * Writes `bench/results/startup.json`.
 */
export async function run(): Promise<Row[]> {
  for (const file of [CLI_ENTRY, LIBRARY_ENTRY, ...UNBUNDLED_ENTRY_FOLDERS])
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  const commands: Measured[] = [
    { measured: "bare node", args: ["-e", "0"] },
    {
      measured: "library entry",
      args: ["--input-type=module", "-e", `await import(${JSON.stringify(LIBRARY_ENTRY)})`],
      goalMsOverBare: ENTRY_GOAL_MS_OVER_BARE,
    },
    {
      measured: "library entry, unbundled",
      args: [
        "--input-type=module",
        "-e",
        `await Promise.all(${JSON.stringify(UNBUNDLED_ENTRY_FOLDERS)}.map((file) => import(file)))`,
      ],
    },
    { measured: "toolsift --version", args: [CLI_ENTRY, "--version"] },
    {
      measured: "toolsift search",
      args: [CLI_ENTRY, ...SEARCH_ARGS],
      goalMsOverBare: SEARCH_GOAL_MS_OVER_BARE,
    },
  ];
  for (let round = 0; round < WARM_UP_RUNS; round += 1)
    for (const command of commands) await timeOnce(command.args);
  const times = new Map<Measured, number[]>(commands.map((command) => [command, []]));
  for (let round = 0; round < TIMED_RUNS; round += 1)
    for (const command of commands) times.get(command)?.push(await timeOnce(command.args));

  const bareMedian = median(times.get(commands[0] as Measured) ?? []);
  const rows: Row[] = [];
  for (const command of commands) {
    const runs = times.get(command) ?? [];
    const medianMs = median(runs);
    const overBare = medianMs - bareMedian;
    const loaded = await traceModules(command.args);
    rows.push({
      measured: command.measured,
      command: `node ${command.args.map((arg) => (/[\s"'()]/u.test(arg) ? JSON.stringify(arg) : arg)).join(" ")}`,
      medianMs: round(medianMs),
      minMs: round(Math.min(...runs)),
      maxMs: round(Math.max(...runs)),
      msOverBare: round(overBare),
      ...(command.goalMsOverBare === undefined
        ? {}
        : { goalMsOverBare: command.goalMsOverBare, met: overBare <= command.goalMsOverBare }),
      modules: loaded.modules,
      heavyLoaded: Object.keys(loaded.heavyChains),
      heavyChains: loaded.heavyChains,
    });
  }
  console.table(
    rows.map(({ measured, medianMs, msOverBare, goalMsOverBare, met, modules, heavyLoaded }) => ({
      measured,
      medianMs,
      msOverBare,
      goalMsOverBare,
      met,
      modules,
      heavyLoaded: heavyLoaded.join(", ") || "none",
    })),
  );
  for (const row of rows)
    for (const [name, chain] of Object.entries(row.heavyChains))
      console.log(`${row.measured}: ${name} via ${chain.join(" <- ")}`);
  writeResults("startup", { node: process.version, timedRuns: TIMED_RUNS, rows });
  return rows;
}

/** Wall time of one child, spawn to exit, in ms; a child that fails stops the bench. */
function timeOnce(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      const elapsed = performance.now() - started;
      if (code === 0) resolve(elapsed);
      else reject(new Error(`node ${args.join(" ")} exited with ${code}: ${stderr}`));
    });
  });
}

type TraceLine = { kind: "esm" | "cjs"; url: string; parent: string | null };

/** Runs the command once with the trace preload: the files it loads and how each heavy package came in. */
async function traceModules(
  args: string[],
): Promise<{ modules: number; heavyChains: Record<string, string[]> }> {
  const dir = mkdtempSync(join(tmpdir(), "toolsift-bench-startup-"));
  try {
    const file = join(dir, "trace.jsonl");
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", TRACE_PRELOAD, ...args], {
        cwd: ROOT,
        env: { ...process.env, STARTUP_TRACE_FILE: file },
        stdio: "ignore",
      });
      child.once("error", reject);
      child.once("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`traced run exited with ${code}`)),
      );
    });
    const text = existsSync(file) ? readFileSync(file, "utf8") : "";
    // The first line naming a module says who loaded it first.
    const firstParent = new Map<string, string | null>();
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const entry = JSON.parse(line) as TraceLine;
      if (!firstParent.has(entry.url)) firstParent.set(entry.url, entry.parent);
    }
    const heavyChains: Record<string, string[]> = {};
    for (const name of HEAVY_PACKAGES) {
      const first = [...firstParent.keys()].find((url) => packageOf(url) === name);
      if (first !== undefined) heavyChains[name] = importChain(first, firstParent);
    }
    return { modules: firstParent.size, heavyChains };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The npm package a file URL belongs to (its last `node_modules/` segment), or undefined for our own files. */
function packageOf(url: string): string | undefined {
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/u.exec(url);
  return match?.[1];
}

/** `url`, its importer, that one's importer… up to the entry, as paths relative to the repository. */
function importChain(url: string, firstParent: ReadonlyMap<string, string | null>): string[] {
  const chain: string[] = [];
  let current: string | null | undefined = url;
  while (current && !chain.includes(current)) {
    chain.push(current);
    current = firstParent.get(current);
  }
  return chain.map(shownPath);
}

/** A module as the chain shows it: `node_modules/<package>/…` for a package, else relative to the repository. */
function shownPath(link: string): string {
  if (!link.startsWith("file:")) return link;
  const path = fileURLToPath(link);
  const packaged = path.lastIndexOf("/node_modules/");
  return packaged === -1 ? relative(ROOT, path) : path.slice(packaged + 1);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

if (isEntryPoint(import.meta.url)) await run();
