import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseConfigText, validateConfig } from "../src/runtime/config/index.js";

const execFileAsync = promisify(execFile);
const root = join(import.meta.dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const bin = join(root, "dist/front-doors/cli/main.js");
/** Where `toolsift mock-openai` listens by default, as the example config says. */
const MOCK_DEFAULT_BASE_URL = "http://127.0.0.1:18790/v1";
/** Where `toolsift gateway` listens by default, as the client example says. */
const GATEWAY_DEFAULT_URL = "http://127.0.0.1:18789";

/** The fenced blocks of the README that carry `<!-- run: NAME -->` just above them. */
function runnableBlocks(): Map<string, string> {
  const blocks = new Map<string, string>();
  const pattern = /<!-- run: ([\w-]+) -->\s*```(?:js|ts|javascript)\n([\s\S]*?)```/g;
  for (const match of readme.matchAll(pattern)) blocks.set(match[1] ?? "", match[2] ?? "");
  return blocks;
}

/** The commands of the fenced `sh` block that carries `<!-- run: NAME -->`, comments dropped, split on spaces. */
function shellCommands(name: string): string[][] {
  const match = new RegExp(`<!-- run: ${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme);
  const lines = (match?.[1] ?? "").split("\n").map((line) => line.replace(/#.*$/u, "").trim());
  return lines.filter((line) => line !== "").map((line) => line.split(/\s+/u));
}

/** A CLI process started as the README says, running until `stop`. */
type Started = { url: string; stop(): Promise<void> };

/** Spawns the built CLI and resolves with the URL it prints once `pattern` matches its stdout. */
function startCli(args: readonly string[], pattern: RegExp, env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
      const url = pattern.exec(stdout)?.[1];
      if (url !== undefined) resolve({ url, stop: () => stop(child, exited) });
    });
    child.once("exit", (code) =>
      reject(new Error(`toolsift ${args.join(" ")} exited with ${code}: ${stderr}`)),
    );
  });
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  await exited;
}

describe("README examples", () => {
  it("runs the library example against the built package", () => {
    const code = runnableBlocks().get("library-example");
    expect(code, "README must keep its library example").toBeDefined();
    // A module inside the package folder resolves "toolsift" to this package (self-reference via exports).
    const dir = mkdtempSync(join(root, ".readme-"));
    try {
      const file = join(dir, "example.mjs");
      writeFileSync(file, code ?? "");
      const output = execFileSync(process.execPath, [file], { cwd: root, encoding: "utf8" });
      expect(output).toContain("native:weather:get_forecast");
      expect(output).toContain("FORECAST Berlin");
      expect(output).toContain("### Deferred Tool Schemas");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("follows the gateway recipe as written: the mock, the gateway with the example config, the openai client", async () => {
    const [mockCommand, gatewayCommand, ...rest] = shellCommands("gateway-recipe");
    expect(rest, "the recipe is two commands").toEqual([]);
    expect(mockCommand?.slice(0, 3)).toEqual(["npx", "toolsift", "mock-openai"]);
    expect(gatewayCommand?.slice(0, 3)).toEqual(["npx", "toolsift", "gateway"]);
    const configArg = gatewayCommand?.indexOf("--config") ?? -1;
    const examplePath = join(root, gatewayCommand?.[configArg + 1] ?? "");
    expect(configArg, "the gateway command names the example config").toBeGreaterThan(0);
    expect(existsSync(examplePath), `${examplePath} exists`).toBe(true);
    const exampleConfig = readFileSync(examplePath, "utf8");
    expect(exampleConfig).toContain(MOCK_DEFAULT_BASE_URL);

    const code = runnableBlocks().get("openai-client");
    expect(code, "README must keep its openai client example").toBeDefined();
    expect(code).toContain(GATEWAY_DEFAULT_URL);
    const expected = /^\/\/ (Done\. .*)$/mu.exec(code ?? "")?.[1];
    expect(expected, "the client example shows what it prints").toBeDefined();

    // Only the ports differ from what a user types: tests run in parallel, so both servers take free ports,
    // and the copy of the example config (beside it, so its relative plugin path stays) names the mock's.
    const home = mkdtempSync(join(root, ".readme-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TOOLSIFT_HOME: home,
      TOOLSIFT_STATE_DIR: join(home, "state"),
    };
    delete env.TOOLSIFT_CONFIG;
    const configCopy = join(dirname(examplePath), `.readme-${randomUUID()}.json5`);
    const started: Started[] = [];
    try {
      const mock = await startCli(
        [...(mockCommand ?? []).slice(2), "--port", "0"],
        /listening on (\S+)/u,
        env,
      );
      started.push(mock);
      writeFileSync(configCopy, exampleConfig.replaceAll(MOCK_DEFAULT_BASE_URL, mock.url));
      const gatewayArgs = (gatewayCommand ?? [])
        .slice(2)
        .map((arg) => (arg === gatewayCommand?.[configArg + 1] ? configCopy : arg));
      const gateway = await startCli([...gatewayArgs, "--port", "0"], /listening on (http:\/\/\S+)/u, env);
      started.push(gateway);

      const file = join(home, "client.mjs");
      writeFileSync(file, (code ?? "").replace(GATEWAY_DEFAULT_URL, gateway.url.replace(/\/$/u, "")));
      // From the clone, as the README says: "openai" resolves from the project's node_modules.
      const client = await execFileAsync(process.execPath, [file], { cwd: root, encoding: "utf8" });
      expect(client.stdout.trim()).toBe(expected);

      // The streaming examples print what their trailing comment lines say.
      for (const name of ["openai-stream", "ai-sdk-stream", "anthropic-stream", "agents-sdk"]) {
        const example = runnableBlocks().get(name);
        expect(example, `README must keep its ${name} example`).toBeDefined();
        const printed = [...(example ?? "").matchAll(/^\/\/ (.*)$/gmu)].map((match) => match[1]).join("\n");
        const streamFile = join(home, `${name}.mjs`);
        writeFileSync(
          streamFile,
          (example ?? "").replace(GATEWAY_DEFAULT_URL, gateway.url.replace(/\/$/u, "")),
        );
        // Inside the clone: "openai", "ai", "@ai-sdk/openai", "@anthropic-ai/sdk" and "@openai/agents" resolve
        // from the project's node_modules.
        const run = await execFileAsync(process.execPath, [streamFile], { cwd: root, encoding: "utf8" });
        expect(run.stdout.trim(), name).toBe(printed);
      }
    } finally {
      for (const server of started.reverse()) await server.stop();
      rmSync(configCopy, { force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("builds an executable bin, so `npx toolsift` runs from a fresh clone", () => {
    // npx runs the package's own bin as a program: without the executable bit the shell refuses it.
    const output = execFileSync(join(root, "dist/front-doors/cli/main.js"), ["--version"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(output.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("shows a keys-and-scopes config that validates", () => {
    const block = /<!-- config: keys -->\s*```json5\n([\s\S]*?)```/u.exec(readme)?.[1] ?? "";
    expect(block).toContain("scopes");
    expect(validateConfig(parseConfigText(block, "README.md"))).toEqual([]);
  });

  it("keeps the two setup commands", () => {
    expect(readme).toContain(
      "npm ci && npx toolsift qa suite --provider-mode mock-openai --scenario tool-search-gateway-e2e",
    );
    expect(readme).toContain(
      'npx toolsift search "look up the price of bitcoin" --catalog examples/catalog.json',
    );
    expect(readme).toContain("npm test");
    expect(readFileSync(join(root, ".ci/run"), "utf8")).toContain("npm test");
  });
});

describe("README: the mcp serve settings", () => {
  it("the mcp.serve example is a valid config, with the defaults it names", async () => {
    const { parseConfigText, validateConfig } = await import("../src/runtime/config/index.js");
    const { HTTP_SESSION_IDLE_MS, MAX_HTTP_SESSIONS, MAX_MCP_SESSION_LOG_BYTES } = await import(
      "../src/front-doors/mcp-server/limits.js"
    );
    const block = /```json5\n(\{\n {2}mcp: \{\n {4}serve:[\s\S]*?)```/u.exec(readme)?.[1];
    expect(block, "the README shows an mcp.serve block").toBeDefined();
    const config = parseConfigText(block ?? "", "README.md") as {
      mcp: { serve: { maxSessions: number; sessionIdleMs: number; maxSessionLogBytes: number } };
    };
    expect(validateConfig(config)).toEqual([]);
    expect(config.mcp.serve).toEqual({
      maxSessions: MAX_HTTP_SESSIONS,
      sessionIdleMs: HTTP_SESSION_IDLE_MS,
      maxSessionLogBytes: MAX_MCP_SESSION_LOG_BYTES,
    });
  });
});
