import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../runtime/config/index.js";
import { createInstallation, type Installation, writeTestPlugin } from "./doctor.test-support.js";
import { runDoctor } from "./run-doctor.js";
import type { DoctorReport } from "./types.js";

let home: Installation;

beforeEach(async () => {
  home = await createInstallation();
});

afterEach(async () => {
  await home.cleanup();
});

/** Doctor on the installation's default config file (`home.file`), as `toolsift doctor` without --config. */
const doctor = (options: { fix?: boolean; configPath?: string } = {}) =>
  runDoctor({ env: home.env, ...options });

const only = (report: DoctorReport, name: string) => report.checks.filter((check) => check.name === name);

/** A file where everything checks out: keys, commands, a URL server, a plugin, valid selectors. */
const GOOD = `// a healthy installation
{
  models: { providers: { ollama: { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" } } },
  agents: { defaults: { model: "openai/gpt-5.4-mini" }, list: [{ id: "main", tools: { allow: ["group:fs", "weather_*"] } }] },
  tools: { toolSearch: { mode: "tools", searchDefaultLimit: 8 }, deny: ["exec"], approval: { require: ["write"] } },
  plugins: { load: { paths: ["./plugins"] } },
  mcp: { servers: { calendar: { command: "calendar-mcp" }, remote: { url: "http://127.0.0.1:8080/mcp" } } },
  gateway: { auth: { keys: [{ id: "ops", token: "tsk-doctor-test-token", scopes: ["admin"] }] } },
}
`;

describe("runDoctor on a healthy installation", () => {
  it("reports every check ok and writes nothing, with or without --fix", async () => {
    await home.writeConfig(GOOD);
    await writeTestPlugin(join(home.dir, "plugins"), "weather", { tools: ["get_forecast"] });
    const before = await home.snapshot();

    const report = await doctor();
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => [check.name, check.status])).toEqual([
      ["config", "ok"],
      ["retired-keys", "ok"],
      ["state-dir", "ok"],
      ["providers", "ok"],
      ["providers", "ok"],
      ["mcp-servers", "ok"],
      ["mcp-servers", "ok"],
      ["plugins", "ok"],
      ["policy", "ok"],
      ["gateway-auth", "ok"],
    ]);
    expect(report.checks.map((check) => check.message)).toEqual([
      `${home.file} is valid`,
      "no retired keys",
      `state directory ${home.stateDir} is writable`,
      "ollama: not used by any agent; its key is not checked",
      "openai: API key from OPENAI_API_KEY (used by agents.defaults.model)",
      `calendar: command found at ${join(home.binDir, "calendar-mcp")}`,
      "remote: url http://127.0.0.1:8080/mcp is well formed (not contacted)",
      `weather: loaded from ${join(home.dir, "plugins", "weather")} (1 tool: get_forecast)`,
      "every policy selector can match a tool",
      "the gateway and mcp serve --http need a key",
    ]);
    expect(await home.snapshot()).toEqual(before);

    const fixed = await doctor({ fix: true });
    expect(fixed.backupPath).toBeUndefined();
    expect(fixed.checks.some((check) => check.status === "fixed")).toBe(false);
    expect(await home.snapshot()).toEqual(before);
  });

  it("accepts a missing default config file, and refuses one named by TOOLSIFT_CONFIG or --config", async () => {
    const unnamed = await doctor();
    expect(only(unnamed, "config")).toEqual([
      { name: "config", status: "ok", message: `no config file at ${home.file}; the defaults apply` },
    ]);
    expect(unnamed.ok).toBe(true);
    const fromEnv = await runDoctor({ env: { ...home.env, TOOLSIFT_CONFIG: home.file } });
    expect(only(fromEnv, "config")).toEqual([
      {
        name: "config",
        status: "error",
        message: `config file ${home.file} does not exist (named by TOOLSIFT_CONFIG): every command refuses it`,
        fix: "check the path, unset TOOLSIFT_CONFIG, or start the file with toolsift config set <path> <value>",
      },
    ]);
    expect(fromEnv.ok).toBe(false);
    const typed = join(home.dir, "typo.json5");
    const named = await doctor({ configPath: typed });
    expect(only(named, "config")).toEqual([
      {
        name: "config",
        status: "error",
        message: `config file ${typed} does not exist (named by --config): every command refuses it`,
        fix: `check the path, or start the file with toolsift config set --config ${typed} <path> <value>`,
      },
    ]);
    expect(named.ok).toBe(false);
    expect(await readdir(home.dir)).not.toContain("toolsift.json");
    expect(await readdir(home.dir)).not.toContain("typo.json5");
  });
});

describe("runDoctor on retired keys", () => {
  it("lists each retired key with the fix, and changes nothing without --fix", async () => {
    await home.writeConfig('{ tools: { toolSearch: { mode: "code", codeTimeoutMs: 2500 } } }\n');
    const before = await home.snapshot();
    const report = await doctor();
    expect(report.ok).toBe(false);
    expect(only(report, "retired-keys")).toEqual([
      {
        name: "retired-keys",
        status: "error",
        message:
          'tools.toolSearch.mode: "code" is retired (the tool_search_code bridge moved to Code Mode); toolsift doctor --fix sets it to "tools"',
        fix: "toolsift doctor --fix",
      },
      {
        name: "retired-keys",
        status: "error",
        message:
          "tools.toolSearch.codeTimeoutMs is retired (the tool_search_code bridge moved to Code Mode); toolsift doctor --fix removes it",
        fix: "toolsift doctor --fix",
      },
    ]);
    expect(only(report, "config")[0]).toMatchObject({
      status: "ok",
      message: `${home.file} is valid apart from its retired keys`,
    });
    expect(await home.snapshot()).toEqual(before);
  });

  it("names the --config the user passed in every fix hint (quoted for the shell when needed)", async () => {
    const file = join(home.dir, "my config.json5");
    await writeFile(file, '{ tools: { toolSearch: { mode: "code" } }, gateway: { port: "80" } }\n');
    const report = await doctor({ configPath: file });
    const option = `--config '${file}'`;
    expect(only(report, "retired-keys")).toEqual([
      {
        name: "retired-keys",
        status: "error",
        message: `tools.toolSearch.mode: "code" is retired (the tool_search_code bridge moved to Code Mode); toolsift doctor --fix ${option} sets it to "tools"`,
        fix: `toolsift doctor --fix ${option}`,
      },
    ]);
    expect(only(report, "config")[0]?.fix).toBe(
      `edit the file, or use toolsift config set ${option} <path> <value> / toolsift config unset ${option} <path>`,
    );
  });

  it("--fix migrates the spec's example exactly, prints each change, and keeps a backup of the old bytes", async () => {
    const old = `// production
{
  tools: {
    toolSearch: { enabled: false, mode: "code", codeTimeoutMs: 2500, searchDefaultLimit: 4, maxSearchLimit: 12 }, // tuned
  },
}
`;
    await home.writeConfig(old);
    const report = await doctor({ fix: true });
    expect(await readFile(home.file, "utf8")).toBe(`// production
{
  tools: {
    toolSearch: { enabled: false, mode: "tools", searchDefaultLimit: 4, maxSearchLimit: 12 }, // tuned
  },
}
`);
    expect(only(report, "retired-keys")).toEqual([
      { name: "retired-keys", status: "fixed", message: 'tools.toolSearch.mode: "code" → "tools"' },
      {
        name: "retired-keys",
        status: "fixed",
        message: "tools.toolSearch.codeTimeoutMs: removed (was 2500)",
      },
    ]);
    expect(only(report, "config")[0]).toMatchObject({ status: "ok", message: `${home.file} is valid` });
    expect(report.ok).toBe(true);
    expect(report.backupPath).toMatch(/toolsift\.json\.bak-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/u);
    expect(await readFile(report.backupPath as string, "utf8")).toBe(old);
    const files = (await readdir(home.dir)).sort();
    expect(files).toEqual(["bin", "state", "toolsift.json", report.backupPath?.split("/").at(-1)].sort());
    const loaded = await loadConfig({ configPath: home.file, env: home.env });
    expect(loaded.config.tools?.toolSearch).toEqual({
      enabled: false,
      mode: "tools",
      searchDefaultLimit: 4,
      maxSearchLimit: 12,
    });
  });

  it.each([
    ["a timeout-only object becomes enabled: true", "{ codeTimeoutMs: 2500 }", "{ enabled: true }"],
    ["mode code alone becomes mode tools", '{ mode: "code" }', '{ mode: "tools" }'],
    ["the enabled state stays", "{ enabled: false, codeTimeoutMs: 100 }", "{ enabled: false }"],
  ])("--fix: %s", async (_, value, migrated) => {
    await home.writeConfig(`{\n  tools: { toolSearch: ${value} },\n}\n`);
    const report = await doctor({ fix: true });
    expect(await readFile(home.file, "utf8")).toBe(`{\n  tools: { toolSearch: ${migrated} },\n}\n`);
    expect(report.ok).toBe(true);
  });

  it("--fix on a multi-line timeout-only object", async () => {
    await home.writeConfig(
      "{\n  tools: {\n    toolSearch: {\n      codeTimeoutMs: 2500, // ms\n    },\n  },\n}\n",
    );
    const report = await doctor({ fix: true });
    expect(await readFile(home.file, "utf8")).toBe(
      "{\n  tools: {\n    toolSearch: {\n      enabled: true,\n    },\n  },\n}\n",
    );
    expect(only(report, "retired-keys").map((check) => check.message)).toEqual([
      "tools.toolSearch.enabled: true (the object held only the retired timeout)",
      "tools.toolSearch.codeTimeoutMs: removed (was 2500)",
    ]);
  });

  it("--fix migrates even when other problems remain, and reports those", async () => {
    await home.writeConfig('{ tools: { toolSearch: { mode: "code" } }, gateway: { port: -1 } }\n');
    const report = await doctor({ fix: true });
    expect(await readFile(home.file, "utf8")).toBe(
      '{ tools: { toolSearch: { mode: "tools" } }, gateway: { port: -1 } }\n',
    );
    expect(only(report, "retired-keys")[0]?.status).toBe("fixed");
    expect(only(report, "config")[0]).toMatchObject({
      status: "error",
      details: [expect.stringMatching(/^gateway\.port: /u)],
    });
    expect(report.ok).toBe(false);
  });
});

describe("runDoctor error paths", () => {
  it("a file that does not parse: the syntax error, and the checks that need the file are not run", async () => {
    await home.writeConfig("{ tools: { toolSearch: true }\n");
    const report = await doctor({ fix: true });
    expect(only(report, "config")[0]).toMatchObject({
      status: "error",
      message: expect.stringMatching(new RegExp(`^Invalid config ${home.file}:2:\\d+: `, "u")),
    });
    for (const name of ["retired-keys", "providers", "mcp-servers", "plugins", "policy"]) {
      expect(only(report, name)).toEqual([
        { name, status: "warn", message: "not checked: the config file could not be read" },
      ]);
    }
    expect(only(report, "state-dir")[0]?.status).toBe("ok");
    expect(await readdir(home.dir)).toEqual(expect.not.arrayContaining([expect.stringContaining(".bak-")]));
  });

  it("a file that does not validate: every problem as path: reason", async () => {
    await home.writeConfig('{ tools: { toolSearch: { mode: "fast" } }, gateway: { port: "80" } }\n');
    const [check] = only(await doctor(), "config");
    expect(check).toMatchObject({
      status: "error",
      fix: "edit the file, or use toolsift config set <path> <value> / toolsift config unset <path>",
    });
    expect(check?.message).toBe(`${home.file} has 2 problems; the gateway will not start with it`);
    expect(check?.details).toEqual([
      'gateway.port: expected an integer between 0 and 65535 (got "80")',
      'tools.toolSearch.mode: expected "tools" | "directory" (got "fast")',
    ]);
  });

  it("a state directory that is not a directory, or cannot exist", async () => {
    await writeFile(join(home.dir, "plain-file"), "x");
    const asFile = await runDoctor({
      env: { ...home.env, TOOLSIFT_STATE_DIR: join(home.dir, "plain-file") },
    });
    expect(only(asFile, "state-dir")[0]).toMatchObject({
      status: "error",
      message: expect.stringContaining("exists but is not a directory"),
      fix: expect.stringContaining("TOOLSIFT_STATE_DIR"),
    });
    const under = await runDoctor({
      env: { ...home.env, TOOLSIFT_STATE_DIR: join(home.dir, "plain-file", "state") },
    });
    expect(only(under, "state-dir")[0]?.status).toBe("error");
    expect(under.ok).toBe(false);
  });

  it("a state directory that does not exist yet is fine, and is not created", async () => {
    const stateDir = join(home.dir, "later", "state");
    const report = await runDoctor({ env: { ...home.env, TOOLSIFT_STATE_DIR: stateDir } });
    expect(only(report, "state-dir")[0]).toEqual({
      name: "state-dir",
      status: "ok",
      message: `state directory ${stateDir} does not exist yet; it will be created in ${home.dir}, which is writable`,
    });
    expect(await readdir(home.dir)).not.toContain("later");
  });

  it("providers without keys: an error when an agent uses it; a provider no agent uses is not checked", async () => {
    await home.writeConfig(`{
  models: { providers: { spare: { api: "openai-responses", apiKey: "env:SPARE_KEY" } } },
  agents: { list: [{ id: "main" }, { id: "ops", model: "openai/gpt-5.4" }] },
}
`);
    const env = { ...home.env };
    delete env.OPENAI_API_KEY;
    const report = await runDoctor({ env });
    expect(only(report, "providers")).toEqual([
      { name: "providers", status: "ok", message: "spare: not used by any agent; its key is not checked" },
      {
        name: "providers",
        status: "error",
        message:
          'Provider "openai" has no API key for https://api.openai.com/v1. Set OPENAI_API_KEY, or models.providers.openai.apiKey (for example "env:OPENAI_API_KEY").',
      },
    ]);
    expect(only(report, "config")).toContainEqual({
      name: "config",
      status: "warn",
      message: "models.providers.spare.apiKey: environment variable SPARE_KEY is not set",
    });
    expect(report.ok).toBe(false);
  });

  it.each([
    ["no config file", undefined],
    ["a config for mcp serve alone", '{ mcp: { servers: { calendar: { command: "calendar-mcp" } } } }\n'],
    [
      "providers configured but no agent",
      '{ models: { providers: { ollama: { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" } } } }\n',
    ],
  ])("%s: no provider key is demanded (a warning names the gateway's default agent)", async (_, text) => {
    if (text !== undefined) await home.writeConfig(text);
    const env = { ...home.env };
    delete env.OPENAI_API_KEY;
    const report = await runDoctor({ env });
    expect(report.ok).toBe(true);
    expect(only(report, "providers")).toContainEqual({
      name: "providers",
      status: "warn",
      message:
        'Provider "openai" has no API key for https://api.openai.com/v1. Set OPENAI_API_KEY, or models.providers.openai.apiKey (for example "env:OPENAI_API_KEY").',
      details: [
        "no agent is configured: only toolsift gateway's default agent would use it; toolsift mcp serve needs no provider key",
      ],
    });
    expect(only(report, "providers").filter((check) => check.status === "error")).toEqual([]);
  });

  it("a model whose provider is not configured", async () => {
    await home.writeConfig('{ agents: { defaults: { model: "groq/llama" } } }\n');
    const checks = only(await doctor(), "providers");
    expect(checks).toEqual([
      {
        name: "providers",
        status: "error",
        message: "groq: used by agents.defaults.model, but models.providers.groq is not configured",
        fix: "add models.providers.groq with api and baseUrl, or use a configured provider",
      },
    ]);
  });

  it("MCP servers whose command is missing, not executable, or whose url is not http(s)", async () => {
    await writeFile(join(home.dir, "server.js"), "");
    await home.writeConfig(`{
  mcp: { servers: {
    missing: { command: "no-such-mcp-server" },
    plain: { command: "./server.js" },
    relative: { command: "../bin/calendar-mcp", cwd: "state" },
    ftp: { url: "ftp://example.com/mcp" },
    secret: { url: "https://user:pw@example.com/mcp?token=abc" },
    joined: { command: "no-such-npx -y pkg data" },
  } },
}
`);
    const checks = only(await doctor(), "mcp-servers");
    expect(checks).toEqual([
      {
        name: "mcp-servers",
        status: "error",
        message: 'missing: command "no-such-mcp-server": "no-such-mcp-server" was not found on PATH',
        fix: "install it, or set mcp.servers.missing.command to its full path",
      },
      {
        name: "mcp-servers",
        status: "error",
        message: `plain: command "./server.js": ${join(home.dir, "server.js")} is not executable (chmod +x it)`,
        fix: "install it, or set mcp.servers.plain.command to its full path",
      },
      {
        name: "mcp-servers",
        status: "ok",
        message: `relative: command found at ${join(home.binDir, "calendar-mcp")}`,
      },
      {
        name: "mcp-servers",
        status: "error",
        message: 'ftp: url "ftp://example.com/mcp" is not an http(s) URL',
        fix: "set mcp.servers.ftp.url to the server's Streamable HTTP endpoint, e.g. http://127.0.0.1:8080/mcp",
      },
      {
        name: "mcp-servers",
        status: "ok",
        message: "secret: url https://example.com/mcp is well formed (not contacted)",
      },
      {
        name: "mcp-servers",
        status: "error",
        message:
          'joined: command "no-such-npx -y pkg data": "no-such-npx -y pkg data" was not found on PATH; it looks like a program with its arguments',
        fix: 'set mcp.servers.joined.command to "no-such-npx" and put the arguments in mcp.servers.joined.args: ["-y","pkg","data"]',
      },
    ]);
  });

  it("plugins that fail to load are errors; plugins left out by plugins.allow are listed", async () => {
    const root = join(home.dir, "plugins");
    await writeTestPlugin(root, "good", { tools: ["a", "b"] });
    await writeTestPlugin(root, "thrower", {
      entry: 'export function register() { throw new Error("boom"); }\n',
    });
    await writeTestPlugin(root, "broken", { manifest: "{ not json" });
    await writeTestPlugin(root, "other", { tools: [] });
    await home.writeConfig(
      '{ plugins: { load: { paths: ["./plugins"] }, allow: ["good", "thrower", "broken"] } }\n',
    );
    const checks = only(await doctor(), "plugins");
    expect(checks.map((check) => [check.status, check.message.split(":")[0]])).toEqual([
      ["ok", "good"],
      ["error", join(root, "broken", "toolsift.plugin.json")],
      ["error", "thrower"],
      ["error", "broken"],
      ["ok", "other"],
    ]);
    expect(checks[0]?.message).toBe(`good: loaded from ${join(root, "good")} (2 tools: a, b)`);
    expect(checks[2]?.message).toContain("boom");
    expect(checks[4]?.message).toBe('other: skipped ("other" is not in plugins.allow)');
  });

  it("policy selectors that match nothing, in every layer and in approval.require", async () => {
    await home.writeConfig(`{
  tools: { deny: ["group:everything"], approval: { require: ["plugin:"] } },
  agents: { list: [{ id: "main", tools: { allow: [" exec"] }, sandbox: { tools: { deny: ["mcp:"] } } }] },
}
`);
    const checks = only(await doctor(), "policy");
    expect(checks.map((check) => check.message)).toEqual([
      expect.stringMatching(/^tools\.deny\[0\]: "group:everything" unknown group/u),
      expect.stringMatching(/^agents\.list\[0\]\.tools\.allow\[0\]: " exec" has leading or trailing spaces/u),
      expect.stringMatching(/^agents\.list\[0\]\.sandbox\.tools\.deny\[0\]: "mcp:" names no MCP server/u),
      expect.stringMatching(/^tools\.approval\.require\[0\]: "plugin:" names no plugin id/u),
    ]);
    expect(checks.every((check) => check.status === "error")).toBe(true);
  });
});
