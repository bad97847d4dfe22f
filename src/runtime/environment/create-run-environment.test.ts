import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig, resolveAgent } from "../config/index.js";
import { WEATHER_PLUGIN, writeTestPlugin } from "../runner/runner.test-support.js";
import { createRunEnvironment } from "./create-run-environment.js";
import { agentProfile, MCP_SERVE_PROFILE_ID, mcpServeProfile } from "./run-profile.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolsift-run-environment-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Loads a config file holding `config` (the weather plugin under ./plugins), as the front doors do. */
async function load(config: Record<string, unknown>) {
  await writeTestPlugin(join(dir, "plugins"), WEATHER_PLUGIN);
  const configPath = join(dir, "toolsift.json");
  await writeFile(configPath, JSON.stringify({ plugins: { load: { paths: ["./plugins"] } }, ...config }));
  return loadConfig({ configPath, env: { TOOLSIFT_STATE_DIR: join(dir, "state") } });
}

describe("createRunEnvironment", () => {
  it("builds what every run shares from the loaded config, reading nothing twice", async () => {
    const loaded = await load({
      tools: { toolSearch: { mode: "directory" } },
      mcp: { servers: { crm: { command: "never-started-in-this-test" } } },
    });
    const lines: string[] = [];
    const environment = await createRunEnvironment(loaded, { env: {}, log: (line) => lines.push(line) });

    // Tool Search settings are the ones loadConfig read: the same frozen object, never read again.
    expect(environment.toolSearch).toBe(loaded.toolSearch);
    expect(Object.isFrozen(environment.toolSearch)).toBe(true);
    expect(environment.toolSearch.mode).toBe("directory");
    expect(environment.config).toBe(loaded.config);
    expect(environment.configDir).toBe(dir);
    expect(environment.stateDir).toBe(loaded.stateDir);
    // Plugins load from paths relative to the config file.
    expect(environment.plugins.tools.map((tool) => tool.name)).toEqual(
      WEATHER_PLUGIN.tools.map((tool) => tool.name),
    );
    // The MCP source knows its servers; none starts until asked.
    expect(environment.mcp.status().map((server) => [server.name, server.status])).toEqual([
      ["crm", "starting"],
    ]);
    // The session store writes into the state directory.
    await environment.sessions.append("main", "env-test", {
      at: new Date().toISOString(),
      type: "session",
      version: 1,
      sessionKey: "env-test",
      agentId: "main",
    });
    expect((await environment.sessions.list()).map((session) => session.sessionKey)).toContain("env-test");
    environment.approvals.close();
    await environment.mcp.close();
  });

  it("gives each environment caches of its own", async () => {
    const loaded = await load({});
    const first = await createRunEnvironment(loaded, { env: {} });
    const second = await createRunEnvironment(loaded, { env: {} });
    expect(first.caches).not.toBe(second.caches);
    expect(first.caches.coreToolsByWorkspace).not.toBe(second.caches.coreToolsByWorkspace);
  });
});

describe("run profiles", () => {
  it("mcp serve runs as agent mcp: embedded harness, no model, the mcp entry's policy and context window", async () => {
    const { config } = await load({
      tools: { deny: ["calendar_*"] },
      agents: {
        defaults: { contextWindowTokens: 64_000 },
        list: [{ id: MCP_SERVE_PROFILE_ID, tools: { deny: ["weather_*"] }, contextWindowTokens: 32_768 }],
      },
    });
    expect(mcpServeProfile(config)).toEqual({
      id: "mcp",
      harness: "embedded",
      contextWindowTokens: 32_768,
      policy: { agentId: "mcp", global: { deny: ["calendar_*"] }, agent: { deny: ["weather_*"] } },
    });
  });

  it("without an mcp entry, mcp serve takes the global policy and agents.defaults' context window", async () => {
    const { config } = await load({ agents: { defaults: { contextWindowTokens: 64_000 } } });
    expect(mcpServeProfile(config)).toEqual({
      id: "mcp",
      harness: "embedded",
      contextWindowTokens: 64_000,
      policy: { agentId: "mcp" },
    });
    const { config: bare } = await load({});
    expect(mcpServeProfile(bare)).toEqual({ id: "mcp", harness: "embedded", policy: { agentId: "mcp" } });
  });

  it("a gateway run's profile is its resolved agent's harness, model, context window and policy", async () => {
    const loaded = await load({
      agents: { defaults: { model: "openai/gpt-5.4-mini", harness: "copilot", contextWindowTokens: 50_000 } },
    });
    const agent = resolveAgent(loaded.config, "main", { stateDir: loaded.stateDir, env: {} });
    expect(agentProfile(loaded.config, agent)).toEqual({
      id: "main",
      harness: "copilot",
      model: { provider: "openai", id: "gpt-5.4-mini", api: "openai-responses" },
      contextWindowTokens: 50_000,
      policy: { agentId: "main" },
    });
  });
});
