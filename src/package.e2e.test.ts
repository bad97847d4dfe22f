import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The README's path for another project, from the packed tarball: `npm install toolsift` (here the .tgz that
// `npm pack` makes) into an empty folder, the library alone; then `npx toolsift init`, `search` and the mock,
// the gateway without its model client (it says what to install) and, after `npm install openai@…`, with it,
// and a SIGTERM to the `npx` process that started the gateway.
const root = fileURLToPath(new URL("../", import.meta.url));
const run = promisify(execFile);

let scratch = "";
let project = "";
let packedFiles: string[] = [];
const started: ChildProcess[] = [];

beforeAll(async () => {
  if (!existsSync(join(root, "dist/front-doors/cli/main.js")))
    await run("npm", ["run", "build"], { cwd: root });
  scratch = await mkdtemp(join(tmpdir(), "toolsift-package-"));
  const packed = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], {
    cwd: root,
  });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (info === undefined) throw new Error("npm pack printed no package");
  packedFiles = info.files.map((file) => file.path);
  project = join(scratch, "project");
  await mkdir(project);
  await writeFile(join(project, "package.json"), '{ "name": "project", "private": true }\n');
  // From the npm cache where it can (the registry otherwise): the root's own install filled it.
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", join(scratch, info.filename)], {
    cwd: project,
  });
}, 600_000);

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.pid) killGroup(child.pid);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The environment of the project's commands: a fresh home, no config file named. */
function projectEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: scratch, TOOLSIFT_HOME: join(scratch, "home") };
  delete env.TOOLSIFT_CONFIG;
  delete env.OPENAI_API_KEY;
  return env;
}

function npx(...args: string[]) {
  return run("npx", ["toolsift", ...args], { cwd: project, env: projectEnv() });
}

/** Starts `npx toolsift …` in its own process group and resolves with the first stdout line. */
function startNpx(...args: string[]): Promise<{ child: ChildProcess; line: string; stderr: () => string }> {
  const child = spawn("npx", ["toolsift", ...args], {
    cwd: project,
    env: projectEnv(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const end = stdout.indexOf("\n");
      if (end !== -1) resolve({ child, line: stdout.slice(0, end), stderr: () => stderr });
    });
    child.on("close", (code) =>
      reject(new Error(`npx toolsift ${args.join(" ")} exited ${code}: ${stderr}`)),
    );
  });
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops a `startNpx` child's whole process group and waits until it is gone. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  killGroup(child.pid);
  await exited;
}

/** Resolves once `read()` contains `text` (the test's timeout bounds the wait). */
async function waitFor(read: () => string, text: string): Promise<void> {
  while (!read().includes(text)) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The pid of the node process that runs `toolsift gateway` in the project (npx's grandchild). */
async function gatewayPid(): Promise<number> {
  const found = await run("pgrep", ["-f", `${project}/node_modules/.bin/toolsift gateway`]);
  const pid = Number(found.stdout.trim().split("\n")[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0) throw new Error(`no gateway process: ${found.stdout}`);
  return pid;
}

describe("the packed package in an empty project", () => {
  it("ships the examples, the docs, the console's page files and the LICENSE, and no source map", () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "dist/front-doors/cli/main.js",
        "dist/index.js",
        "dist/front-doors/console/assets/console.js",
        "examples/toolsift.json5",
        "examples/plugins/weather/index.js",
        "examples/catalog.json",
        "docs/config.md",
        "docs/library.md",
      ]),
    );
    expect(packedFiles.filter((file) => file.endsWith(".map"))).toEqual([]);
  });

  it("does not install the OpenTelemetry SDK (an optional peer); a gateway asked to export says what to install", async () => {
    expect(existsSync(join(project, "node_modules/@opentelemetry/sdk-trace-base"))).toBe(false);
    expect(existsSync(join(project, "node_modules/@opentelemetry/api"))).toBe(true);
    const config = join(project, "otel.json5");
    await writeFile(config, '{ telemetry: { otlp: { endpoint: "http://127.0.0.1:9/" } } }\n');
    const outcome = await npx("gateway", "--port", "0", "--config", config).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("the OpenTelemetry SDK is not installed");
    expect(outcome.stderr).toContain("npm install @opentelemetry/context-async-hooks@2.12.0");
  });

  it("installs neither model client: a library-only install", () => {
    expect(existsSync(join(project, "node_modules/toolsift"))).toBe(true);
    expect(existsSync(join(project, "node_modules/openai"))).toBe(false);
    expect(existsSync(join(project, "node_modules/@anthropic-ai/sdk"))).toBe(false);
  });

  it("init, search, the mock; the gateway without openai says what to install; with it, it answers; a SIGTERM to npx stops it", async () => {
    const init = await npx("init");
    expect(init.stdout).toContain(`wrote ${join(project, "toolsift.json5")}`);
    // The starter's next steps install the gateway's client first.
    expect(init.stdout).toContain("  npm install openai@6.49.0   (the gateway's model client)\n");
    const search = await npx("search", "weather forecast", "--config", "toolsift.json5");
    expect(search.stdout).toMatch(/^1\. native:weather:get_forecast\n/u);
    const catalog = await npx("search", "look up the price of bitcoin", "--catalog", "catalog.json");
    expect(catalog.stdout).toContain("native:finance:get_crypto_price");

    const mock = await startNpx("mock-openai", "--port", "0");
    const mockUrl = /listening on (\S+)$/u.exec(mock.line)?.[1] ?? "";
    await npx("config", "set", "models.providers.mock.baseUrl", mockUrl, "--config", "toolsift.json5");

    // Without the `openai` client: the start says so, and a request fails naming the command, not the module.
    const bare = await startNpx("gateway", "--port", "0", "--config", "toolsift.json5");
    const bareUrl = /listening on (\S+)$/u.exec(bare.line)?.[1] ?? "";
    const install = "npm install openai@6.49.0";
    await waitFor(bare.stderr, install);
    expect(bare.stderr()).toContain(
      `warning: Provider "mock" (api openai-responses) needs the package openai, which is not installed; runs that use this provider fail until it is fixed (toolsift doctor checks it). Fix: ${install}`,
    );
    const refused = await fetch(`${bareUrl}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "toolsift", input: "What is the weather in Berlin tomorrow?" }),
    });
    const refusal = ((await refused.json()) as { error: { message: string; code: string } }).error;
    expect(refused.status).toBe(502);
    expect(refusal.code).toBe("provider_failed");
    expect(refusal.message).toBe(
      `Provider "mock" (api openai-responses) needs the package openai, which is not installed. Install it: ${install}`,
    );
    await stopGroup(bare.child);
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "openai@6.49.0"], {
      cwd: project,
    });

    const gateway = await startNpx("gateway", "--port", "0", "--config", "toolsift.json5");
    expect(gateway.stderr()).not.toContain("needs the package openai");
    const url = /listening on (\S+)$/u.exec(gateway.line)?.[1] ?? "";
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused-on-loopback" });
    const response = await client.responses.create({
      model: "toolsift",
      input: "What is the weather in Berlin tomorrow? target=get_forecast",
    });
    expect(response.output_text).toContain("Forecast for qa, 1 day(s) ahead");

    const pid = await gatewayPid();
    const npxExited = new Promise((resolve) => gateway.child.on("exit", resolve));
    gateway.child.kill("SIGTERM");
    await npxExited;
    // The gateway notices its parent is gone and drains; the test's timeout bounds the wait.
    while (isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    mock.child.kill("SIGTERM");
  }, 120_000);
});
