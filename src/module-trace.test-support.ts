import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { runNode } from "./front-doors/cli/built-cli.test-support.js";

/** The repository root (where `npm run build` writes `dist/`). */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** The package's "." export: the bundle scripts/bundle-library-entry.mjs writes over tsc's file. */
export const LIBRARY_ENTRY = join(ROOT, "dist/index.js");
/** The bundle's shared and lazy chunks. */
export const LIBRARY_CHUNKS = join(ROOT, "dist/index-chunks");
/** The CLI bin, from tsc's output. */
export const CLI_ENTRY = join(ROOT, "dist/front-doors/cli/main.js");
/** The preload `npm run bench -- startup` counts modules with (an ESM resolve hook and a Module._load wrapper). */
const TRACE_PRELOAD = join(ROOT, "bench/startup-trace.mjs");

/** What one traced node process did. */
export type Traced = {
  code: number | null;
  stdout: string;
  stderr: string;
  /** npm packages loaded (the last `node_modules/<name>` of each file), sorted. */
  packages: string[];
  /** toolsift's own files loaded (relative to the repository, e.g. `dist/index.js`), sorted. */
  ownFiles: string[];
  /** For each loaded package: the file (relative to the repository) that first imported or required it. */
  firstImporters: Record<string, string>;
};

/** Runs `npm run build` once when the CLI or the bundled library entry is missing (a test run without it). */
export function ensureBuilt(): void {
  if (!existsSync(CLI_ENTRY) || !existsSync(LIBRARY_CHUNKS)) {
    execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  }
}

/**
 * Runs node with the trace preload and `nodeArgs` in the repository, with this process's environment plus
 * `env`; resolves with what it printed and loaded.
 */
export async function traceNode(
  nodeArgs: readonly string[],
  traceFile: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Traced> {
  const { code, stdout, stderr } = await runNode(["--import", TRACE_PRELOAD, ...nodeArgs], {
    cwd: ROOT,
    env: { ...process.env, ...env, STARTUP_TRACE_FILE: traceFile },
  });
  const lines = existsSync(traceFile) ? readFileSync(traceFile, "utf8").split("\n").filter(Boolean) : [];
  const packages = new Set<string>();
  const ownFiles = new Set<string>();
  const firstImporters: Record<string, string> = {};
  for (const line of lines) {
    const { url, parent } = JSON.parse(line) as { url: string; parent: string | null };
    const name = packageOf(url);
    if (name === undefined) {
      ownFiles.add(relative(ROOT, fileURLToPath(url)));
    } else if (!packages.has(name)) {
      packages.add(name);
      firstImporters[name] = parent?.startsWith("file:") ? relative(ROOT, fileURLToPath(parent)) : "";
    }
  }
  return {
    code,
    stdout,
    stderr,
    packages: [...packages].sort(),
    ownFiles: [...ownFiles].sort(),
    firstImporters,
  };
}

/** The npm package a file URL belongs to (its last `node_modules/` segment), or undefined for our own files. */
function packageOf(url: string): string | undefined {
  return /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/u.exec(url)?.[1];
}
