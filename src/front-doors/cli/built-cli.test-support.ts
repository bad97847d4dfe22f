import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built CLI (`npm run build` first), run as a user runs `toolsift`. */
export const BUILT_CLI_ENTRY = fileURLToPath(
  new URL("../../../dist/front-doors/cli/main.js", import.meta.url),
);

/** How a run of the built CLI ended, and what it printed. */
export type BuiltCliOutcome = { code: number | null; stdout: string; stderr: string };

/**
 * Runs `node dist/front-doors/cli/main.js <args>` with `env` (stdin closed) to its exit. With `boundMs`, a
 * child still running then is killed (code null): a bound against a start that serves instead of exiting.
 */
export function runBuiltCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { boundMs?: number; cwd?: string } = {},
): Promise<BuiltCliOutcome> {
  return runNode([BUILT_CLI_ENTRY, ...args], { ...options, env });
}

/**
 * Runs `node <nodeArgs>` (stdin closed) to its exit, in `cwd` with `env` (this process's when absent), and
 * resolves with its exit code and what it printed. With `boundMs`, a child still running then is killed.
 */
export function runNode(
  nodeArgs: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; boundMs?: number } = {},
): Promise<BuiltCliOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const bound =
      options.boundMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.boundMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(bound);
      resolve({ code, stdout, stderr });
    });
  });
}
