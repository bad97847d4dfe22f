import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFakePlugin } from "../../dev/qa/index.js";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { createCliHome, runBuiltCli } from "./built-cli.test-support.js";

let root = "";
let configPath = "";
let env: NodeJS.ProcessEnv = {};

const run = (...args: string[]) => runBuiltCli(args, env);

beforeAll(async () => {
  ({ root, configPath, env } = await createCliHome("toolsift-cli-", async (dir) => {
    const pluginDir = await writeFakePlugin(join(dir, "plugins", "fake-plugin"));
    return { plugins: { load: { paths: [pluginDir] } } };
  }));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("toolsift tools", () => {
  it("prints the effective surface as JSON: plugin tools cataloged, controls declared", async () => {
    const outcome = await run("tools", "--json");
    expect(outcome.code).toBe(0);
    const surface = JSON.parse(outcome.stdout) as {
      toolSearch: { enabled: boolean; mode: string };
      tools: Array<{ id: string; owner: string; visibility: string }>;
      declaredTools: string[];
      directory: string;
    };
    expect(surface.toolSearch).toEqual({ enabled: true, mode: "tools" });
    const target = surface.tools.find((tool) => tool.id === "native:fake-plugin:fake_plugin_tool_17");
    expect(target).toMatchObject({ owner: "fake-plugin", visibility: "catalog" });
    expect(surface.declaredTools.slice(0, 3)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    expect(surface.declaredTools).not.toContain("fake_plugin_tool_17");
    expect(surface.directory).toContain("- fake_plugin_tool_17 (fake-plugin)");
  });

  it("prints a readable summary, and refuses an unknown agent with exit 1", async () => {
    const text = await run("tools");
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("tool search: on, tools mode");
    expect(text.stdout).toMatch(/catalog\s+native:fake-plugin:fake_plugin_tool_01/);
    // The directory the help promises, indented under its heading.
    expect(text.stdout).toMatch(/\ndirectory \(\d+ chars, in the system prompt\):\n/u);
    expect(text.stdout).toContain("\n  - fake_plugin_tool_17 (fake-plugin)");
    const unknown = await run("tools", "--agent", "nobody");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown agent "nobody"');
  });
  it("under Code Mode says so, and lists exec and wait as declared, the plugin's tools behind a cell", async () => {
    const config = JSON.parse(await readFile(configPath, "utf8")) as Record<string, unknown>;
    const codeModeConfig = join(root, "code-mode.json");
    const tools = { toolSearch: { alwaysVisible: ["fake_plugin_tool_01"] } };
    await writeFile(codeModeConfig, JSON.stringify({ ...config, tools, codeMode: { enabled: true } }));
    const json = await run("tools", "--json", "--config", codeModeConfig);
    expect(json.code).toBe(0);
    const surface = JSON.parse(json.stdout) as {
      toolSearch: { enabled: boolean };
      codeMode?: { enabled: boolean };
      tools: Array<{ id: string; visibility: string }>;
      declaredTools: string[];
      directory?: string;
    };
    expect(surface.codeMode).toEqual({ enabled: true });
    expect(surface.toolSearch.enabled).toBe(false);
    expect(surface.declaredTools).toEqual(["exec", "wait"]);
    expect(surface.directory).toBeUndefined();
    expect(
      surface.tools.find((tool) => tool.id === "native:fake-plugin:fake_plugin_tool_17")?.visibility,
    ).toBe("catalog");
    const text = await run("tools", "--config", codeModeConfig);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("code mode: on (exec and wait replace Tool Search");
    expect(text.stdout).not.toContain("tool search: on");
    expect(text.stdout).toContain("declared to the model (2): exec, wait");
    expect(text.stdout).toMatch(/catalog\s+native:fake-plugin:fake_plugin_tool_01/);
    expect(text.stdout).toContain(
      "pinned but not declared: fake_plugin_tool_01 (Code Mode declares no pins; a cell finds the tool with tools.search)",
    );
  });
});

describe("toolsift sessions", () => {
  it("lists sessions, shows one with what it answers, and fails clearly for a missing one", async () => {
    expect((await run("sessions")).stdout).toContain("No sessions yet.");
    const store = createFileSessionStore(join(root, "state"));
    const at = new Date().toISOString();
    await store.append("main", "demo", {
      type: "session",
      version: 1,
      agentId: "main",
      sessionKey: "demo",
      at,
    });
    await store.append("main", "demo", {
      type: "model-request",
      at,
      runId: "run_1",
      provider: "mock",
      model: "m",
      declaredTools: ["tool_search", "tool_describe", "tool_call"],
      declaredToolCount: 3,
      systemPromptChars: 100,
      requestBytes: 1000,
    });
    const list = await run("sessions");
    expect(list.stdout).toContain("main/demo");
    const show = await run("sessions", "show", "demo");
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("schemas declared up front: 3");
    expect(show.stdout).toContain("last run: no run summary (the run is still going, or it was cut off)\n");
    expect(show.stdout).not.toContain("opened by key");
    await store.append("main", "alice.notes", {
      type: "session",
      version: 1,
      agentId: "main",
      sessionKey: "alice.notes",
      keyId: "alice",
      at,
    });
    const keyed = await run("sessions", "show", "alice.notes");
    expect(keyed.stdout).toContain(
      "session main/alice.notes: 1 events, 0 model requests\nopened by key: alice\n",
    );
    const missing = await run("sessions", "show", "nope");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No session "nope"');
  });
});

describe("toolsift sessions show, as a new user reads the list", () => {
  it("accepts keys as listed (agent/key), or a bare key with --agent, and refuses the two disagreeing", async () => {
    const store = createFileSessionStore(join(root, "state"));
    const at = new Date().toISOString();
    await store.append("mcp", "mcp-abc", {
      type: "session",
      version: 1,
      agentId: "mcp",
      sessionKey: "mcp-abc",
      at,
    });
    await store.append("mcp", "mcp-abc", {
      type: "tool-result",
      at,
      callId: "c1",
      name: "tool_search",
      isError: false,
      output: "[]",
    });
    const list = await run("sessions");
    expect(list.stdout).toMatch(/ {2}mcp\/mcp-abc {2}/u);
    const listed = await run("sessions", "show", "mcp/mcp-abc");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("session mcp/mcp-abc: 2 events, 0 model requests");
    expect(await run("sessions", "show", "mcp-abc", "--agent", "mcp")).toEqual(listed);
    const elsewhere = await run("sessions", "show", "mcp-abc");
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toBe(
      'error: No session "mcp-abc" for agent "main". Did you mean mcp/mcp-abc?\n',
    );
    const conflict = await run("sessions", "show", "mcp/mcp-abc", "--agent", "main");
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toContain('"mcp/mcp-abc" names agent "mcp" but --agent says "main"');
  });

  it("says why no schema count exists instead of printing undefined", async () => {
    const store = createFileSessionStore(join(root, "state"));
    const at = new Date().toISOString();
    await store.append("main", "early-fail", {
      type: "session",
      version: 1,
      agentId: "main",
      sessionKey: "early-fail",
      at,
    });
    await store.append("main", "early-fail", {
      type: "run-summary",
      at,
      runId: "run_1",
      status: "failed",
      turns: 0,
      durationMs: 3,
      error: "provider unreachable",
    });
    const none = await run("sessions", "show", "main/early-fail");
    expect(none.stdout).toContain("schemas declared up front: none (no model request in this session)\n");
    expect(none.stdout).toContain("last run: failed (provider unreachable)\n");
    const mcp = await run("sessions", "show", "mcp/mcp-abc");
    expect(mcp.stdout).toContain("schemas declared up front: none (no model request in this session)\n");
    // A later run that failed before its first request, after one that made requests.
    await store.append("main", "demo", {
      type: "run-summary",
      at,
      runId: "run_2",
      status: "failed",
      turns: 0,
      durationMs: 3,
    });
    const later = await run("sessions", "show", "demo");
    expect(later.stdout).toContain(
      "schemas declared up front: none (the last run ended before its first model request)\n",
    );
    for (const outcome of [none, mcp, later]) expect(outcome.stdout).not.toContain("undefined");
  });

  it("--json prints JSON wherever it is typed", async () => {
    for (const args of [
      ["sessions", "show", "demo", "--json"],
      ["sessions", "show", "main/demo", "--json"],
      ["sessions", "--json", "show", "demo"],
      ["sessions", "show", "--json", "demo"],
    ]) {
      const outcome = await run(...args);
      expect(outcome.code, args.join(" ")).toBe(0);
      const parsed = JSON.parse(outcome.stdout) as {
        agentId: string;
        sessionKey: string;
        summary: unknown;
        events: unknown[];
      };
      expect(parsed).toMatchObject({ agentId: "main", sessionKey: "demo" });
      expect(parsed.events.length).toBeGreaterThan(1);
    }
  });

  it("--config after the key is honoured (a missing file is an error, not the default store)", async () => {
    const outcome = await run("sessions", "show", "demo", "--config", join(root, "absent.json5"));
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`Config file ${join(root, "absent.json5")} does not exist`);
  });
});
