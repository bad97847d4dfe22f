import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI_ENTRY } from "../../src/dev/qa/start-gateway-process.js";
import { captureOutput } from "../../src/front-doors/cli/built-cli.test-support.js";

/** The fixture plugin whose tool leaves an interval and a listening socket open. */
export const HANDLE_HOLDER_PLUGIN = fileURLToPath(
  new URL("../fixtures/plugins/handle-holder", import.meta.url),
);

/** How long a CLI process may take to print its address; it is killed after that. */
const START_WAIT_MS = 20_000;
/** Wait between two polls of a child's output. */
const POLL_INTERVAL_MS = 25;

/** A `toolsift` server command running as a child process. */
export type ServerProcess = {
  pid: number;
  /** The URL it printed (`listening on <url>`). */
  url: string;
  /** Everything it wrote to stderr so far (its log). */
  stderr(): string;
  /** Resolves once it exited, with its exit code and the signal that ended it (if any). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` if it still runs. */
  kill(signal: NodeJS.Signals): void;
};

/** A fresh temporary directory (the caller removes it). */
export function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `toolsift-hardening-${prefix}-`));
}

/** Writes `config` to `<dir>/toolsift.json`; returns its path and an environment that uses `dir` for state. */
export async function writeConfig(
  dir: string,
  config: unknown,
): Promise<{ configPath: string; env: NodeJS.ProcessEnv }> {
  const configPath = join(dir, "toolsift.json");
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("TOOLSIFT_") && !name.startsWith("OPENAI_")) env[name] = value;
  }
  return {
    configPath,
    env: { ...env, TOOLSIFT_HOME: join(dir, "home"), TOOLSIFT_STATE_DIR: join(dir, "state") },
  };
}

/**
 * Runs the built CLI (`node dist/front-doors/cli/main.js <args>`), with the open-file limit set to `descriptorLimit` (soft
 * and hard, through `sh -c 'ulimit -n N'`) when given, and waits for the URL it prints (on stdout or stderr).
 */
export async function spawnServer(options: {
  args: string[];
  env: NodeJS.ProcessEnv;
  descriptorLimit?: number;
}): Promise<ServerProcess> {
  const node = [process.execPath, CLI_ENTRY, ...options.args];
  const child: ChildProcess =
    options.descriptorLimit === undefined
      ? spawn(node[0] as string, node.slice(1), { env: options.env, stdio: ["ignore", "pipe", "pipe"] })
      : spawn("sh", ["-c", `ulimit -n ${options.descriptorLimit} && exec "$0" "$@"`, ...node], {
          env: options.env,
          stdio: ["ignore", "pipe", "pipe"],
        });
  const text = captureOutput(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const killer = setTimeout(() => child.kill("SIGKILL"), START_WAIT_MS);
  try {
    for (;;) {
      const match = /listening on (http:\/\/\S+)/u.exec(`${text.stdout}\n${text.stderr}`);
      if (match?.[1]) {
        return {
          pid: child.pid as number,
          url: match[1].replace(/\/$/u, ""),
          stderr: () => text.stderr,
          exited,
          kill: (signal) => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          },
        };
      }
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`the CLI exited before listening:\n${text.stdout}\n${text.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  } finally {
    clearTimeout(killer);
  }
}

/** True while a process with this id exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A raw TCP connection to `port` on 127.0.0.1 that sends nothing; `closed` resolves when either side closes it. */
export function silentSocket(port: number): {
  socket: Socket;
  connected: Promise<void>;
  closed: Promise<void>;
} {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.resume();
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return { socket, connected, closed };
}
