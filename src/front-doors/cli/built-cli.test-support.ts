import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    const text = captureOutput(child);
    const bound =
      options.boundMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.boundMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(bound);
      resolve({ code, stdout: text.stdout, stderr: text.stderr });
    });
  });
}

/** A temp home for built-CLI runs: its config file, and the environment that points the CLI at both. */
export type CliHome = { root: string; configPath: string; env: NodeJS.ProcessEnv };

/**
 * Makes a temp directory named from `prefix`, writes `config(root)` as JSON to its toolsift.json, and returns
 * the environment a built-CLI run reads them through (TOOLSIFT_HOME, TOOLSIFT_STATE_DIR at root/state and
 * TOOLSIFT_CONFIG). The caller removes `root`.
 */
export async function createCliHome(
  prefix: string,
  config: (root: string) => Promise<unknown> | unknown,
): Promise<CliHome> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const configPath = join(root, "toolsift.json");
  await writeFile(configPath, JSON.stringify(await config(root)));
  const env = {
    ...process.env,
    TOOLSIFT_HOME: root,
    TOOLSIFT_STATE_DIR: join(root, "state"),
    TOOLSIFT_CONFIG: configPath,
  };
  return { root, configPath, env };
}

/** What a child printed so far, read as UTF-8 text: the object fills in as its stdout and stderr arrive. */
export function captureOutput(child: ChildProcess): { stdout: string; stderr: string } {
  const text = { stdout: "", stderr: "" };
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    text.stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    text.stderr += chunk;
  });
  return text;
}
