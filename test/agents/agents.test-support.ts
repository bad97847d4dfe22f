// Real processes for the agent lanes: the built `toolsift mock-openai` and `toolsift gateway`, a recording
// pass-through in front of the gateway (to see what the agent itself sent and got back), and the pinned agent
// CLIs (test/agents/node_modules) run once per conversation, each bounded by a timeout and killed on teardown.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, the built CLI and the folder the agent CLIs are installed in. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI_ENTRY = join(REPO_ROOT, "dist/front-doors/cli/main.js");
export const AGENTS_DIR = join(REPO_ROOT, "test/agents");
export const CLAUDE_BIN = join(AGENTS_DIR, "node_modules/.bin/claude");
export const CODEX_BIN = join(AGENTS_DIR, "node_modules/.bin/codex");
/** The example plugin (`get_forecast`, `get_current_conditions`) the gateway lanes load. */
export const WEATHER_PLUGINS = join(REPO_ROOT, "examples/plugins");
/** The upstream MCP server behind `toolsift mcp serve` in the MCP lanes (its tools are `stdio_<verb>_<noun>`). */
export const UPSTREAM_MCP_SERVER = join(REPO_ROOT, "test/fixtures/mcp/stdio-server.mjs");

/** Longest a spawned server may take to print its address. */
const START_TIMEOUT_MS = 20_000;
/** Longest one agent conversation may take before the agent is killed (the lane then fails). */
export const AGENT_RUN_TIMEOUT_MS = 90_000;
/** Per-test timeout of the lanes: one or two conversations plus the agents' own start-up. */
export const LANE_TIMEOUT_MS = 200_000;

/**
 * Why the CLI lanes cannot run here, or `undefined` when they can: the agent CLIs are installed apart from
 * the root install (`npm ci --prefix test/agents`, which `npm run test:agents` and CI run).
 */
export function agentsMissingReason(bin: string): string | undefined {
  if (!existsSync(CLI_ENTRY)) return `${CLI_ENTRY} is missing: run \`npm run build\` first.`;
  if (!existsSync(bin))
    return `${bin} is missing: install the agent CLIs with \`npm ci --prefix test/agents\` (or run \`npm run test:agents\`).`;
  return undefined;
}

/** A spawned server that printed its address. */
export type Listening = { url: string; output(): string; stop(): Promise<void> };

/** Spawns `node <CLI> <args>` and waits for `listening on <url>` on stdout. */
export function startCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Listening> {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`toolsift ${args[0]} did not print its address within ${START_TIMEOUT_MS} ms:\n${output}`),
      );
    }, START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /listening on (http:\/\/\S+)/u.exec(output);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve({
        url: match[1].replace(/\/$/u, ""),
        output: () => output,
        stop: () => stopChild(child, exited),
      });
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`toolsift ${args[0]} exited before listening:\n${output}`));
    });
  });
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** A temp directory removed by `remove()`. */
export async function tempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `toolsift-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A running `toolsift mock-openai`: `base` is its origin (no `/v1`). */
export type MockProcess = Listening & { base: string };

/** Starts `toolsift mock-openai --port 0`. */
export async function startMock(env: NodeJS.ProcessEnv = {}): Promise<MockProcess> {
  const listening = await startCli(["mock-openai", "--port", "0"], env);
  return { ...listening, base: listening.url.replace(/\/v1$/u, "") };
}

/** One request the mock received, parsed. */
export type MockRequest = { cursor: number; path: string; bytes: number; body: Record<string, unknown> };

/** The mock's recorded requests after `after` (its `GET /debug/requests`). */
export async function mockRequests(mock: MockProcess, after = 0): Promise<MockRequest[]> {
  const response = await fetch(`${mock.base}/debug/requests?after=${after}`);
  const data = (await response.json()) as {
    requests: Array<{ cursor: number; path: string; bytes: number; body: string }>;
  };
  return data.requests.map((request) => ({
    cursor: request.cursor,
    path: request.path,
    bytes: request.bytes,
    body: JSON.parse(request.body || "{}") as Record<string, unknown>,
  }));
}

/** The mock's newest cursor (0 before the first request). */
export async function mockCursor(mock: MockProcess): Promise<number> {
  const response = await fetch(`${mock.base}/debug/requests?after=0`);
  const { cursor } = (await response.json()) as { cursor?: unknown };
  if (typeof cursor !== "number")
    throw new Error(`the mock's /debug/requests gave no cursor (${response.status})`);
  return cursor;
}

/** The tool names a recorded request declared (function tools, namespaced functions as `ns/name`). */
export function declaredToolNames(body: Record<string, unknown>): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
  return tools.flatMap((tool) => {
    if (tool.type === "namespace" && Array.isArray(tool.tools))
      return (tool.tools as Array<{ name?: string }>).map((inner) => `${String(tool.name)}/${inner.name}`);
    const inner = tool.function as { name?: string } | undefined;
    const name = inner?.name ?? tool.name;
    return typeof name === "string" ? [name] : [];
  });
}

/** A running gateway over the mock, its state directory and config file. */
export type GatewayProcess = Listening & { stateDir: string };

/** Starts `toolsift gateway --port 0` over the mock with the example weather plugin, state in `dir`. */
export async function startGateway(mock: MockProcess, dir: string): Promise<GatewayProcess> {
  const stateDir = join(dir, "state");
  await mkdir(stateDir, { recursive: true });
  const configPath = join(dir, "toolsift.json5");
  await writeFile(configPath, gatewayConfig(mock.url));
  const listening = await startCli(["gateway", "--port", "0", "--config", configPath], {
    TOOLSIFT_STATE_DIR: stateDir,
  });
  return { ...listening, stateDir };
}

/** The gateway config the lanes run (and the README recipes show): the mock as model, the weather plugin. */
export function gatewayConfig(mockBaseUrl: string): string {
  return `{
  models: { providers: { mock: { api: "openai-responses", baseUrl: ${JSON.stringify(mockBaseUrl)} } } },
  agents: { defaults: { model: "mock/toolsift-mock" } },
  plugins: { load: { paths: [${JSON.stringify(WEATHER_PLUGINS)}] } },
}
`;
}

/** The `toolsift mcp serve` config of the MCP lanes: one upstream stdio MCP server (`fixture`). */
export function mcpServeConfig(): string {
  return `{ mcp: { servers: { fixture: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(UPSTREAM_MCP_SERVER)}, "--count", "30"] } } } }\n`;
}

/** The gateway's session logs (`toolsift sessions --json`). */
export async function gatewaySessions(gateway: GatewayProcess): Promise<Array<{ sessionKey: string }>> {
  const run = await runProcess(process.execPath, [CLI_ENTRY, "sessions", "--json"], {
    env: { ...process.env, TOOLSIFT_STATE_DIR: gateway.stateDir },
    timeoutMs: 20_000,
  });
  if (run.code !== 0) throw new Error(`toolsift sessions --json failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Array<{ sessionKey: string }>;
}

/** Session files the gateway wrote (one per session). */
export async function sessionFileCount(gateway: GatewayProcess): Promise<number> {
  const dir = join(gateway.stateDir, "agents/main/sessions");
  return existsSync(dir) ? (await readdir(dir)).filter((name) => name.endsWith(".jsonl")).length : 0;
}

/** One exchange the recording proxy passed on. */
export type ProxiedExchange = {
  method: string;
  path: string;
  requestBody: string;
  status: number;
  contentType: string;
  /** SSE `data:` frames in the answer (0 for a JSON answer). */
  dataFrames: number;
  responseBody: string;
  /** Milliseconds from the end of the request body to the answer's first byte. */
  firstByteMs: number;
  /** Milliseconds from the end of the request body to the first text delta, when the answer streamed text. */
  firstTextMs?: number;
};

/** A streamed text delta: Responses `response.output_text.delta`, Anthropic `text_delta`. */
const TEXT_DELTA = /response\.output_text\.delta|"text_delta"/u;

/** A pass-through HTTP proxy to `target` that records every exchange (what the agent sent and got back). */
export type RecordingProxy = { url: string; exchanges: ProxiedExchange[]; close(): Promise<void> };

/** Starts a recording proxy on 127.0.0.1 (ephemeral port) in front of `target` (an origin). */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: ProxiedExchange[] = [];
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const requestBody = Buffer.concat(chunks);
      const sentAt = performance.now();
      let firstByteMs: number | undefined;
      let firstTextMs: number | undefined;
      const upstream = httpRequest(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host, "accept-encoding": "identity" },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          const parts: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => {
            firstByteMs ??= performance.now() - sentAt;
            if (firstTextMs === undefined && TEXT_DELTA.test(chunk.toString("utf8")))
              firstTextMs = performance.now() - sentAt;
            parts.push(chunk);
            res.write(chunk);
          });
          answer.on("end", () => {
            res.end();
            const responseBody = Buffer.concat(parts).toString("utf8");
            exchanges.push({
              method: req.method ?? "",
              path: req.url ?? "",
              requestBody: requestBody.toString("utf8"),
              status: answer.statusCode ?? 0,
              contentType: String(answer.headers["content-type"] ?? ""),
              dataFrames: (responseBody.match(/^data:/gmu) ?? []).length,
              responseBody,
              firstByteMs: firstByteMs ?? performance.now() - sentAt,
              ...(firstTextMs === undefined ? {} : { firstTextMs }),
            });
          });
        },
      );
      upstream.on("error", (error) => {
        res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `proxy: ${error.message}` } }));
      });
      upstream.end(requestBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The model exchanges a proxy saw (`POST /v1/messages` or `/v1/responses`). */
export function modelExchanges(proxy: RecordingProxy): ProxiedExchange[] {
  return proxy.exchanges.filter(
    (exchange) => exchange.method === "POST" && /\/v1\/(messages|responses)(\?|$)/u.test(exchange.path),
  );
}

/** A finished child process. */
export type ProcessRun = { code: number | null; stdout: string; stderr: string; timedOut: boolean };

/**
 * Runs a command to its end, killed (its whole process group) past `timeoutMs`: the lane then fails with
 * what it printed, never hangs.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number },
): Promise<ProcessRun> {
  const child = spawn(command, args, {
    env: options.env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  let timedOut = false;
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, options.timeoutMs);
  return new Promise((resolve) => {
    child.once("close", (code) => {
      clearTimeout(timer);
      killGroup(); // MCP servers and other helpers the agent left behind.
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** A marker a shell command prints, unique per run, so a final answer that holds it proves the round trip. */
export function uniqueMarker(): string {
  return `toolsift-${process.pid}-${Date.now().toString(36)}-marker`;
}
