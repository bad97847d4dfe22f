import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_ENTRY, startGatewayProcess } from "../../src/dev/qa/start-gateway-process.js";
import { captureOutput } from "../../src/front-doors/cli/built-cli.test-support.js";
import { startConfiguredGateway } from "../../src/front-doors/cli/start-configured-gateway.js";

/** Most polls of a condition before a test gives up (each one waits POLL_INTERVAL_MS). */
export const MAX_POLLS = 400;
/** Wait between two polls. */
export const POLL_INTERVAL_MS = 25;
/** How long a CLI process may take to print its address or to exit. */
const CLI_WAIT_MS = 20_000;

/** A gateway under test, in a child process or in this process. */
export interface GatewayUnderTest {
  url: string;
  /** Everything it logged so far (the child's stderr, or the lines given to the in-process log). */
  log(): string;
  stop(): Promise<void>;
}

/** A fresh temporary directory (the caller removes it). */
export function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `toolsift-safety-${prefix}-`));
}

/** The test process's environment without toolsift or OpenAI settings, plus `extra`. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith("TOOLSIFT_") || name.startsWith("OPENAI_")) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** Writes `config` as the config file `<home>/toolsift.json` and returns the environment that selects it. */
export async function writeConfig(
  home: string,
  stateDir: string,
  config: unknown,
): Promise<{ configPath: string; env: NodeJS.ProcessEnv }> {
  const configPath = join(home, "toolsift.json");
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);
  return {
    configPath,
    env: childEnv({ TOOLSIFT_HOME: home, TOOLSIFT_STATE_DIR: stateDir, TOOLSIFT_CONFIG: configPath }),
  };
}

/** The real `toolsift gateway --port 0 --config <file>` as a child process (built CLI). */
export async function gatewayProcess(configPath: string, env: NodeJS.ProcessEnv): Promise<GatewayUnderTest> {
  const child = await startGatewayProcess({ configPath, env });
  return {
    url: child.url,
    log: () => child.stderr(),
    stop: async () => {
      await child.stop();
    },
  };
}

/** The same start path as `toolsift gateway` (config, plugins, runner, approvals, HTTP), in this process. */
export async function gatewayInProcess(
  configPath: string,
  env: NodeJS.ProcessEnv,
): Promise<GatewayUnderTest> {
  const lines: string[] = [];
  const running = await startConfiguredGateway(
    { configPath, port: 0, bind: "127.0.0.1" },
    (line) => lines.push(line),
    env,
  );
  return { url: running.url, log: () => lines.join("\n"), stop: () => running.stop() };
}

/** What a gateway answered. */
export interface GatewayAnswer {
  status: number;
  body: Record<string, unknown>;
  /** `output_text`, or the error message. */
  text: string;
  raw: string;
}

/** POST /v1/responses with a user text on a session (and agent), optionally with a bearer token. */
export async function postResponse(
  url: string,
  options: { input: string; session: string; agent?: string; token?: string },
): Promise<GatewayAnswer> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-toolsift-session": options.session,
  };
  if (options.agent !== undefined) headers["x-toolsift-agent"] = options.agent;
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${url}/v1/responses`, {
    method: "POST",
    headers,
    body: JSON.stringify({ input: options.input }),
  });
  return answerOf(response);
}

/** A GET with an optional `Authorization` header value. */
export async function getPath(url: string, path: string, authorization?: string): Promise<GatewayAnswer> {
  const response = await fetch(`${url}${path}`, {
    headers: authorization === undefined ? {} : { authorization },
  });
  return answerOf(response);
}

async function answerOf(response: Response): Promise<GatewayAnswer> {
  const raw = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    body = {};
  }
  const error = body.error as { message?: unknown } | undefined;
  const text =
    typeof body.output_text === "string"
      ? body.output_text
      : typeof error?.message === "string"
        ? error.message
        : "";
  return { status: response.status, body, text, raw };
}

/** The raw lines of a session log file on disk. */
export async function sessionFileLines(
  stateDir: string,
  agentId: string,
  sessionKey: string,
): Promise<string[]> {
  const text = await readFile(join(stateDir, "agents", agentId, "sessions", `${sessionKey}.jsonl`), "utf8");
  return text.split("\n").filter((line) => line.length > 0);
}

/** The parsed events of a session log file on disk. */
export async function sessionFileEvents(
  stateDir: string,
  agentId: string,
  sessionKey: string,
): Promise<Array<Record<string, unknown>>> {
  const lines = await sessionFileLines(stateDir, agentId, sessionKey);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Every regular file under `dir`, recursively (absolute paths). */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Polls `probe` until it returns a value (not undefined), at most MAX_POLLS times. */
export async function pollFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < MAX_POLLS; attempt += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** A `toolsift` CLI process (the built `dist/front-doors/cli/main.js`) and what it printed. */
export interface CliProcess {
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once it exits. */
  exited: Promise<number | null>;
  /** The URL from `listening on <url>`, or a rejection with the output when it exits first. */
  listening(): Promise<string>;
  /** SIGTERM (when still running), then the exit code. */
  stop(): Promise<number | null>;
}

/** Spawns `node dist/front-doors/cli/main.js <args>` with `env`; killed when it neither listens nor exits in CLI_WAIT_MS. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv): CliProcess {
  const child: ChildProcess = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const text = captureOutput(child);
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const timer = setTimeout(() => child.kill("SIGKILL"), CLI_WAIT_MS);
  void exited.then(() => clearTimeout(timer));
  return {
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    exited,
    listening: async () => {
      for (;;) {
        const match = /listening on (http:\/\/\S+)/u.exec(text.stdout);
        if (match?.[1]) {
          clearTimeout(timer);
          return match[1];
        }
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`the CLI exited before listening:\n${text.stdout}\n${text.stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      }
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
