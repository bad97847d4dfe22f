import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createRunEnvironment,
  mcpServeProfile,
  type RunEnvironment,
} from "../../runtime/environment/index.js";
import { createRunner } from "../../runtime/runner/index.js";
import { WEATHER_PLUGIN, writeTestPlugin } from "../../runtime/runner/runner.test-support.js";
import { createMcpFrontend } from "../mcp-server/index.js";
import { runServe } from "./mcp-action.js";
import { startConfiguredGateway } from "./start-configured-gateway.js";

// The real composition root, runner and MCP face, watched: each front door's wiring is checked by what it
// hands them.
vi.mock("../../runtime/environment/index.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../runtime/environment/index.js")>();
  return { ...real, createRunEnvironment: vi.fn(real.createRunEnvironment) };
});
vi.mock("../../runtime/runner/index.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../runtime/runner/index.js")>();
  return { ...real, createRunner: vi.fn(real.createRunner) };
});
vi.mock("../mcp-server/index.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../mcp-server/index.js")>();
  return { ...real, createMcpFrontend: vi.fn(real.createMcpFrontend) };
});

let dir: string;
let configPath: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  vi.clearAllMocks();
  dir = await mkdtemp(join(tmpdir(), "toolsift-environment-wiring-"));
  await writeTestPlugin(join(dir, "plugins"), WEATHER_PLUGIN);
  configPath = join(dir, "toolsift.json");
  await writeFile(
    configPath,
    JSON.stringify({
      plugins: { load: { paths: ["./plugins"] } },
      tools: { toolSearch: { mode: "directory" }, approval: { mode: "deny" } },
      agents: { defaults: { contextWindowTokens: 64_000 } },
    }),
  );
  env = { TOOLSIFT_STATE_DIR: join(dir, "state"), TOOLSIFT_HOME: join(dir, "home") };
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

/** The one environment createRunEnvironment built (it must have been called exactly once). */
async function builtOnce(): Promise<RunEnvironment> {
  expect(createRunEnvironment).toHaveBeenCalledTimes(1);
  return (await vi.mocked(createRunEnvironment).mock.results[0]?.value) as RunEnvironment;
}

describe("one run environment per process, built by createRunEnvironment", () => {
  it("the gateway's start builds it once and runs every agent on it", async () => {
    const gateway = await startConfiguredGateway({ configPath, port: 0 }, () => {}, env);
    try {
      const environment = await builtOnce();
      expect(createRunner).toHaveBeenCalledTimes(1);
      expect(vi.mocked(createRunner).mock.calls[0]?.[0].environment).toBe(environment);
      expect(environment.toolSearch.mode).toBe("directory");
      expect(environment.plugins.tools.map((tool) => tool.name)).toEqual(
        WEATHER_PLUGIN.tools.map((tool) => tool.name),
      );
    } finally {
      await gateway.stop();
    }
  });

  it("mcp serve builds it once, makes no runner, and serves it under the mcp profile", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    stdout.resume();
    // `mcp serve` reads the process's variables: the state directory goes to the test's folder.
    vi.stubEnv("TOOLSIFT_STATE_DIR", env.TOOLSIFT_STATE_DIR);
    vi.stubEnv("TOOLSIFT_HOME", env.TOOLSIFT_HOME);
    const serving = runServe(
      { stdout: () => {}, stderr: () => {} },
      {
        stdin,
        stdout,
        waitForShutdown: () => ({ signal: new Promise<string>(() => {}), dispose() {} }),
      },
      { config: configPath },
    );
    await vi.waitFor(() => expect(createMcpFrontend).toHaveBeenCalledTimes(1));
    stdin.end();
    await serving;
    const environment = await builtOnce();
    expect(createRunner).not.toHaveBeenCalled();
    const options = vi.mocked(createMcpFrontend).mock.calls[0]?.[0];
    expect(options?.source).toBe(environment.mcp);
    // The same settings, plugins, approvals and sessions as the environment; only the log is the command's own.
    expect(options?.environment.toolSearch).toBe(environment.toolSearch);
    expect(options?.environment.plugins).toBe(environment.plugins);
    expect(options?.environment.approvals).toBe(environment.approvals);
    expect(options?.environment.sessions).toBe(environment.sessions);
    expect(options?.profile).toEqual(mcpServeProfile(environment.config));
    expect(options?.profile.contextWindowTokens).toBe(64_000);
  });
});
