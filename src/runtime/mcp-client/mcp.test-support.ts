import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { McpServerSettings } from "../config/index.js";

/** The folder of the MCP fixture servers (plain `.mjs`, runnable with `node`). */
export const FIXTURES_DIR = fileURLToPath(new URL("../../../test/fixtures/mcp/", import.meta.url));

/** The built CLI, for tests that spawn `toolsift` as a user would (`npm run build` first). */
export const BUILT_CLI = fileURLToPath(new URL("../../../dist/front-doors/cli/main.js", import.meta.url));

/** Longest a `waitFor` waits before failing: a bound against hangs, not a timing assertion. */
const WAIT_BOUND_MS = 15_000;
const WAIT_STEP_MS = 20;

/** Settings of the generated stdio fixture server (`stdio-server.mjs`). */
export function stdioFixture(
  options: { prefix?: string; count?: number; pageSize?: number; hostile?: boolean } = {},
): McpServerSettings {
  const args = [join(FIXTURES_DIR, "stdio-server.mjs")];
  if (options.prefix !== undefined) args.push("--prefix", options.prefix);
  if (options.count !== undefined) args.push("--count", String(options.count));
  if (options.pageSize !== undefined) args.push("--page-size", String(options.pageSize));
  if (options.hostile) args.push("--hostile");
  return { command: process.execPath, args };
}

/** Settings of another fixture script, run with this Node. */
export function scriptFixture(file: string, env?: Record<string, string>): McpServerSettings {
  return { command: process.execPath, args: [join(FIXTURES_DIR, file)], ...(env ? { env } : {}) };
}

/** A running Streamable HTTP fixture server (a child process). */
export interface HttpFixture {
  url: string;
  close(): Promise<void>;
}

/** Starts `http-server.mjs` on a free port and resolves with its MCP URL once it listens. */
export async function startHttpFixture(
  options: { prefix?: string; count?: number; requireHeader?: string } = {},
): Promise<HttpFixture> {
  const args = [join(FIXTURES_DIR, "http-server.mjs")];
  if (options.requireHeader !== undefined) args.push("--require-header", options.requireHeader);
  if (options.prefix !== undefined) args.push("--prefix", options.prefix);
  if (options.count !== undefined) args.push("--count", String(options.count));
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const url = await readLine(child, /^MCP_FIXTURE_URL (\S+)$/u, "the HTTP fixture to print its URL");
  return { url, close: () => stopChild(child) };
}

/** Resolves with the first capture of `pattern` on the child's stdout (or stderr, with `from`). */
export function readLine(
  child: ChildProcess,
  pattern: RegExp,
  what: string,
  from: "stdout" | "stderr" = "stdout",
): Promise<string> {
  const stream = from === "stdout" ? child.stdout : child.stderr;
  if (!stream) return Promise.reject(new Error(`no ${from} to read ${what} from`));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stream });
    const onExit = (code: number | null) => reject(new Error(`process exited (${code}) before ${what}`));
    child.once("exit", onExit);
    lines.on("line", (line) => {
      const match = pattern.exec(line);
      if (match?.[1] !== undefined) {
        child.off("exit", onExit);
        resolve(match[1]);
      }
    });
  });
}

/** Stops a child process (SIGTERM) and waits for it to exit. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Polls `check` until it returns a value other than undefined/false; fails after a generous bound. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
): Promise<T> {
  const deadline = Date.now() + WAIT_BOUND_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}

/** A temp directory removed by `cleanup`. */
export async function tempDir(prefix = "toolsift-mcp-"): Promise<{ path: string; cleanup(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** Writes a plugin folder with one tool per name (each echoes its `text`), for directory content. */
export async function writeEchoPlugin(root: string, id: string, names: readonly string[]): Promise<string> {
  const dir = join(root, id);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "toolsift.plugin.json"),
    JSON.stringify({ id, name: `Plugin ${id}`, version: "1.0.0", tools: names }),
  );
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  await writeFile(
    join(dir, "index.js"),
    `export function register(api) {
  for (const name of ${JSON.stringify(names)}) {
    api.registerTool({
      name,
      description: "Echo the text back (" + name + ").",
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
      async execute(args) {
        return { content: [{ type: "text", text: "ECHO " + name + " " + args.text }] };
      },
    });
  }
}
`,
  );
  return dir;
}

/** Lines logged by the code under test. */
export function logCollector(): { lines: string[]; log(line: string): void } {
  const lines: string[] = [];
  return { lines, log: (line) => lines.push(line) };
}
