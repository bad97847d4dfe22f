import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built CLI the benchmarks start (`npm run build` first). */
export const CLI_ENTRY = fileURLToPath(new URL("../dist/front-doors/cli/main.js", import.meta.url));
/** How long a child may take to print its address. */
const START_TIMEOUT_MS = 20_000;

/** A started child: its process, the URL it printed, and the tail of its stderr. */
export type Child = { process: ChildProcess; url: string; stderr: () => string };

/**
 * Starts `entry` (default: the built CLI) with `args` under `node [nodeArgs]`; resolves once it prints
 * `listening on <url>`, rejects if it exits first or takes longer than 20 s.
 */
export function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { nodeArgs?: string[]; entry?: string } = {},
): Promise<Child> {
  const entry = options.entry ?? CLI_ENTRY;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...(entry ? [entry] : []), ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    // Only the tail is kept: the gateway logs one line per request.
    stderr = (stderr + chunk).slice(-20_000);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`toolsift ${args[0]} did not start: ${stderr}`));
    }, START_TIMEOUT_MS);
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ process: child, url: match[1].replace(/\/$/, ""), stderr: () => stderr });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`toolsift ${args[0]} exited with ${code}: ${stderr}`));
    });
  });
}

/** Stops a child with SIGTERM and waits for it to exit (at once if it already has). */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
