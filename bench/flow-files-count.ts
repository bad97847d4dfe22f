import { pathToFileURL } from "node:url";

/** One function of a V8 `Profiler.takePreciseCoverage` script: its first range is the whole function. */
export type FunctionCoverage = {
  functionName: string;
  ranges: ReadonlyArray<{ startOffset: number; endOffset: number; count: number }>;
  isBlockCoverage: boolean;
};

/** One script of a V8 `Profiler.takePreciseCoverage` result. */
export type ScriptCoverage = { scriptId: string; url: string; functions: readonly FunctionCoverage[] };

/** A function's key across takes of one process: its script's URL and where it starts. */
function functionKey(script: ScriptCoverage, fn: FunctionCoverage): string {
  return `${script.url}#${fn.ranges[0]?.startOffset ?? -1}`;
}

/** The functions called in `scripts` (keys as `distFilesRun`'s `background` takes them). */
export function functionsCalled(scripts: readonly ScriptCoverage[]): Set<string> {
  const called = new Set<string>();
  for (const script of scripts) {
    for (const fn of script.functions)
      if ((fn.ranges[0]?.count ?? 0) > 0) called.add(functionKey(script, fn));
  }
  return called;
}

/**
 * The files under `<root>/dist/` (outside any `node_modules`) with at least one function called in the
 * coverage, as paths relative to `dist/`, sorted. A module's top-level code is a function too, so a file
 * counts when it was evaluated or when any of its functions ran. Functions in `background` (what the process
 * runs on its own, from `functionsCalled` of a take while it was idle: interval timers) are not counted.
 */
export function distFilesRun(
  scripts: readonly ScriptCoverage[],
  root: string,
  background: ReadonlySet<string> = new Set(),
): string[] {
  const dist = pathToFileURL(`${root.replace(/\/+$/u, "")}/dist/`).href;
  const files = new Set<string>();
  for (const script of scripts) {
    if (!script.url.startsWith(dist) || script.url.includes("/node_modules/")) continue;
    const ran = script.functions.some(
      (fn) => (fn.ranges[0]?.count ?? 0) > 0 && !background.has(functionKey(script, fn)),
    );
    if (ran) files.add(decodeURIComponent(script.url.slice(dist.length)));
  }
  return [...files].sort();
}

/**
 * The source file tsc built a `dist/` file from (`front-doors/cli/main.js` → `src/front-doors/cli/main.ts`).
 * The library bundle (`index.js`, `index-chunks/…`) is built from many sources, so it stays `dist/…`.
 */
export function sourcePathOf(distPath: string): string {
  if (distPath === "index.js" || distPath.startsWith("index-chunks/")) return `dist/${distPath}`;
  return `src/${distPath.replace(/\.js$/u, ".ts")}`;
}
