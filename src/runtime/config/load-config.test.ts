import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readToolSearchSettings } from "../../core/tool-search/index.js";
import { refusal } from "../../shared/errors/toolsift-error.test-support.js";
import { loadConfig } from "./load-config.js";

let dir: string;
let file: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "toolsift-config-"));
  file = path.join(dir, "toolsift.json");
  env = { HOME: dir, TOOLSIFT_HOME: dir };
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Loads `text` and expects a refusal; proves the file and its folder are exactly as they were. */
async function expectRefused(text: string | Buffer): Promise<string[]> {
  await writeFile(file, text);
  const before = {
    bytes: await readFile(file),
    mtime: (await stat(file)).mtimeMs,
    entries: await readdir(dir),
  };
  const error = await refusal(() => loadConfig({ env }));
  expect(error.code).toBe("CONFIG_INVALID");
  expect(error.message).not.toMatch(/\n\s+at /u);
  expect((await readFile(file)).equals(before.bytes)).toBe(true);
  expect((await stat(file)).mtimeMs).toBe(before.mtime);
  expect(await readdir(dir)).toEqual(before.entries);
  return error.message.split("\n");
}

const NOTHING_CHANGED = "Nothing was changed: fix the file and run the command again.";

describe("loadConfig: a missing file means all defaults", () => {
  it("no file at $TOOLSIFT_HOME/toolsift.json: config {}, exists false, no warning", async () => {
    expect(await loadConfig({ env })).toEqual({
      config: {},
      toolSearch: expect.objectContaining({
        explicit: false,
        enabled: true,
        mode: "tools",
        alwaysVisible: [],
      }),
      path: file,
      exists: false,
      stateDir: path.join(dir, "state"),
      warnings: [],
      raw: {},
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it("a TOOLSIFT_CONFIG file that is missing is refused like --config, naming the variable", async () => {
    const named = path.join(dir, "typo.json");
    const error = await refusal(() => loadConfig({ env: { ...env, TOOLSIFT_CONFIG: named } }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      `Config file ${named} does not exist (named by TOOLSIFT_CONFIG). Check the path, or unset TOOLSIFT_CONFIG to use the default file; to start a new file there, run toolsift config set <path> <value>.`,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("a --config file that is missing is refused, naming the path and how to start one", async () => {
    const named = path.join(dir, "typo.json");
    const error = await refusal(() => loadConfig({ env, configPath: named }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      `Config file ${named} does not exist (named by --config). Check the path; to start a new file there, run toolsift config set --config ${named} <path> <value>.`,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("names the same --config in the fix of a retired key", async () => {
    const named = path.join(dir, "my config.json5");
    await writeFile(named, '{ tools: { toolSearch: { mode: "code" } } }');
    const error = await refusal(() => loadConfig({ env, configPath: named }));
    expect(error.message).toContain(`run toolsift doctor --fix --config '${named}' to migrate it`);
    const unnamed = await refusal(() => loadConfig({ env: { ...env, TOOLSIFT_CONFIG: named } }));
    expect(unnamed.message).toContain("run toolsift doctor --fix to migrate it");
  });

  it("a file of only whitespace is all defaults too", async () => {
    await writeFile(file, "  \n\t\n");
    expect(await loadConfig({ env })).toMatchObject({ config: {}, exists: true, warnings: [] });
  });
});

describe("loadConfig: Tool Search settings are read once", () => {
  it("hands tools.toolSearch on as Tool Search's typed settings, which are never read again", async () => {
    await writeFile(file, '{ tools: { toolSearch: { mode: "directory", alwaysVisible: ["web_search"] } } }');
    const loaded = await loadConfig({ env });
    expect(loaded.config.tools?.toolSearch).toEqual({ mode: "directory", alwaysVisible: ["web_search"] });
    expect(loaded.toolSearch).toMatchObject({ explicit: true, enabled: true, mode: "directory" });
    expect(loaded.toolSearch.alwaysVisible).toEqual(["web_search"]);
    expect(Object.isFrozen(loaded.toolSearch)).toBe(true);
    // The settings are what the reader makes of the file's value, whole.
    expect(loaded.toolSearch).toEqual(readToolSearchSettings(loaded.config.tools?.toolSearch).settings);
  });
});

describe("loadConfig: valid files", () => {
  it("reads JSON5: comments, trailing commas, unquoted keys, single quotes, hex, a BOM", async () => {
    await writeFile(
      file,
      `\uFEFF// toolsift config
{
  /* block comment */
  tools: { toolSearch: { mode: 'directory', maxSearchLimit: 0x10, }, },
  gateway: { port: 18789, },
  agents: { list: [{ id: "main", maxTurns: +12, },], },
}
`,
    );
    const loaded = await loadConfig({ env });
    expect(loaded.exists).toBe(true);
    expect(loaded.path).toBe(file);
    expect(loaded.config).toEqual({
      tools: { toolSearch: { mode: "directory", maxSearchLimit: 16 } },
      gateway: { port: 18789 },
      agents: { list: [{ id: "main", maxTurns: 12 }] },
    });
    expect(loaded.warnings).toEqual([]);
  });

  it.each<[string, string, unknown]>([
    [
      "tools.toolSearch true (config.md example)",
      "{ tools: { toolSearch: true } }",
      { tools: { toolSearch: true } },
    ],
    ["tools.toolSearch false", "{ tools: { toolSearch: false } }", { tools: { toolSearch: false } }],
    ["an empty object", "{}", {}],
    [
      "the spec's outline, providers and servers",
      `{ models: { providers: { ollama: { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" } } },
         mcp: { servers: { calendar: { command: "node", args: ["calendar-server.js"] }, remote: { url: "http://127.0.0.1:8080/mcp" } } },
         codeMode: { enabled: false, timeoutMs: 10000 } }`,
      {
        models: { providers: { ollama: { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" } } },
        mcp: {
          servers: {
            calendar: { command: "node", args: ["calendar-server.js"] },
            remote: { url: "http://127.0.0.1:8080/mcp" },
          },
        },
        codeMode: { enabled: false, timeoutMs: 10000 },
      },
    ],
  ])("%s", async (_, text, expected) => {
    await writeFile(file, text);
    expect((await loadConfig({ env })).config).toEqual(expected);
  });

  it("raw keeps the file as parsed, before env: resolution", async () => {
    await writeFile(file, '{ gateway: { auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" } } }');
    const loaded = await loadConfig({ env: { ...env, TOOLSIFT_GATEWAY_TOKEN: "t0ken" } });
    expect(loaded.raw).toEqual({ gateway: { auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" } } });
    expect(loaded.config).toEqual({ gateway: { auth: { token: "t0ken" } } });
  });

  it("TOOLSIFT_STATE_DIR sets stateDir, and loading never creates it", async () => {
    const stateDir = path.join(dir, "elsewhere", "state");
    const loaded = await loadConfig({ env: { ...env, TOOLSIFT_STATE_DIR: stateDir } });
    expect(loaded.stateDir).toBe(stateDir);
    await expect(stat(stateDir)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("loadConfig: env:NAME values", () => {
  const text = `{
    models: { providers: {
      openai: { api: "openai-responses", apiKey: "env:OPENAI_API_KEY" },
      ollama: { api: "openai-chat", baseUrl: "env:OLLAMA_URL" },
    } },
    gateway: { auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" } },
  }`;

  it("set variables replace the values", async () => {
    await writeFile(file, text);
    const loaded = await loadConfig({
      env: {
        ...env,
        OPENAI_API_KEY: "sk-1",
        OLLAMA_URL: "http://127.0.0.1:11434/v1",
        TOOLSIFT_GATEWAY_TOKEN: "tok",
      },
    });
    expect(loaded.config).toEqual({
      models: {
        providers: {
          openai: { api: "openai-responses", apiKey: "sk-1" },
          ollama: { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" },
        },
      },
      gateway: { auth: { token: "tok" } },
    });
    expect(loaded.warnings).toEqual([]);
  });

  it("unset variables are warnings, not errors: the values are left out", async () => {
    await writeFile(file, text);
    const loaded = await loadConfig({ env: { ...env, OLLAMA_URL: "http://127.0.0.1:11434/v1" } });
    expect(loaded.config).toEqual({
      models: {
        providers: {
          openai: { api: "openai-responses" },
          ollama: { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" },
        },
      },
      gateway: { auth: {} },
    });
    expect(loaded.warnings).toEqual([
      "models.providers.openai.apiKey: environment variable OPENAI_API_KEY is not set",
      "gateway.auth.token: environment variable TOOLSIFT_GATEWAY_TOKEN is not set",
    ]);
  });

  it("a variable with a bad value is a warning naming the variable, never showing the value", async () => {
    await writeFile(file, text);
    const loaded = await loadConfig({
      env: {
        ...env,
        OPENAI_API_KEY: "sk-1",
        OLLAMA_URL: "ftp://user:secret@host",
        TOOLSIFT_GATEWAY_TOKEN: "tok",
      },
    });
    expect(loaded.warnings).toEqual([
      "models.providers.ollama.baseUrl: expected an http:// or https:// URL (from environment variable OLLAMA_URL)",
    ]);
    expect(loaded.warnings.join("\n")).not.toContain("secret");
  });
});

describe("loadConfig: invalid files are refused with every problem, and left untouched", () => {
  it.each<[string, string, string[]]>([
    [
      "a wrong Tool Search mode (the spec's example)",
      '{ tools: { toolSearch: { mode: "code-ish" } } }',
      ['tools.toolSearch.mode: expected "tools" | "directory" (got "code-ish")'],
    ],
    [
      "several problems in several sections, listed one per line",
      `{
        gateway: { port: 70000 },
        agents: { list: [{ model: "gpt-5.4" }] },
        tools: { toolSearch: { mode: "code", codeTimeoutMs: 2500 }, profil: "full" },
      }`,
      [
        "agents.list[0].id: required",
        "tools.profil: unknown key (expected profile, allow, alsoAllow, deny, toolSearch, approval or catalogCacheSize)",
        "gateway.port: expected an integer between 0 and 65535 (got 70000)",
        "tools.toolSearch.codeTimeoutMs: retired key (the tool_search_code bridge moved to Code Mode); run toolsift doctor --fix to remove it",
        'tools.toolSearch.mode: "code" is retired (the tool_search_code bridge moved to Code Mode); run toolsift doctor --fix to migrate it to "tools"',
      ],
    ],
    ["a top-level array", "[]", ["(top level): expected an object (got an array)"]],
    ["a top-level string", '"tools"', ['(top level): expected an object (got "tools")']],
    [
      "an env reference where a number is expected",
      '{ gateway: { port: "env:PORT" } }',
      [
        'gateway.port: expected an integer between 0 and 65535 (got "env:PORT"; "env:NAME" references work only in string values)',
      ],
    ],
  ])("%s", async (_, text, problems) => {
    expect(await expectRefused(text)).toEqual([`Invalid config ${file}:`, ...problems, NOTHING_CHANGED]);
  });

  it.each<[string, string, string]>([
    ["a missing value", "{ tools: { toolSearch: } }", "1:24: invalid character '}'"],
    ["an unclosed object", "{\n  gateway: { port: 1 }\n", "3:1: invalid end of input"],
    ["a stray bracket", "{ a: 1,\n  b: ]}", "2:6: invalid character ']'"],
    ["text after the object", "{}\n{}", "2:1: invalid character '{'"],
    ["a missing comma", "{ a: 1 b: 2 }", "1:8: invalid character 'b'"],
    ["an unterminated string", '{ a: "open\n}', "2:0: invalid character '\\n'"],
  ])(
    "a syntax error (%s) names file:line:col and JSON5's reason, then the hint",
    async (_, text, position) => {
      expect(await expectRefused(text)).toEqual([
        `Invalid config ${file}:${position}`,
        "The file is JSON5: comments, trailing commas and unquoted keys are allowed, but brackets, quotes and commas between entries must match.",
        NOTHING_CHANGED,
      ]);
    },
  );
});

describe("loadConfig: hostile files", () => {
  it("a file of 400,000 nested arrays is refused at the depth limit, without a crash", async () => {
    const depth = 400_000;
    const lines = await expectRefused(
      `{ plugins: { entries: { w: { config: ${"[".repeat(depth)}${"]".repeat(depth)} } } } }`,
    );
    expect(lines).toEqual([
      `Invalid config ${file}:`,
      `plugins.entries.w.config${"[0]".repeat(28)}: nested deeper than 32 levels`,
      NOTHING_CHANGED,
    ]);
  });

  it("a top-level value of nested arrays is refused the same way", async () => {
    const lines = await expectRefused(`${"[".repeat(200_000)}${"]".repeat(200_000)}`);
    expect(lines).toEqual([
      `Invalid config ${file}:`,
      `${"[0]".repeat(32)}: nested deeper than 32 levels`,
      "(top level): expected an object (got an array)",
      NOTHING_CHANGED,
    ]);
  });

  it("a file over 1 MiB is refused before it is parsed", async () => {
    const size = 1024 * 1024 + 1;
    expect(await expectRefused(" ".repeat(size))).toEqual([
      `Invalid config ${file}: the file is ${size} bytes; the limit is 1048576 bytes. Is this the right file?`,
      NOTHING_CHANGED,
    ]);
  });

  it("__proto__ keys are refused and never pollute Object.prototype", async () => {
    const lines = await expectRefused(
      '{ "__proto__": { "polluted": true }, plugins: { entries: { w: { config: { __proto__: { polluted: 2 } } } } } }',
    );
    expect(lines).toEqual([
      `Invalid config ${file}:`,
      '__proto__: "__proto__" is not allowed as a key',
      'plugins.entries.w.config.__proto__: "__proto__" is not allowed as a key',
      NOTHING_CHANGED,
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("many problems are listed up to 100, then counted", async () => {
    const keys = Array.from({ length: 150 }, (_, index) => `k${index}: 1`).join(", ");
    const lines = await expectRefused(`{ ${keys} }`);
    expect(lines).toHaveLength(1 + 100 + 1 + 1);
    expect(lines[1]).toBe(
      "k0: unknown key (expected models, agents, tools, plugins, mcp, codeMode, sessions, telemetry, gateway or state)",
    );
    expect(lines[101]).toBe("… and 50 more problems");
    expect(lines[102]).toBe(NOTHING_CHANGED);
  });

  it("a directory where the file should be is refused with the fix", async () => {
    await mkdir(file);
    const error = await refusal(() => loadConfig({ env }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      `Invalid config ${file}: is not a regular file; point --config or TOOLSIFT_CONFIG at a JSON5 file.\n${NOTHING_CHANGED}`,
    );
  });

  it("a path through a file is refused (ENOTDIR), not taken as missing", async () => {
    await writeFile(path.join(dir, "plain"), "{}");
    const inside = path.join(dir, "plain", "toolsift.json");
    const error = await refusal(() => loadConfig({ env, configPath: inside }));
    expect(error.message).toBe(
      `Invalid config ${inside}: a part of the path is not a directory; check --config or TOOLSIFT_CONFIG.\n${NOTHING_CHANGED}`,
    );
  });

  it("invalid UTF-8 and control characters do not crash the loader", async () => {
    const lines = await expectRefused(Buffer.from([0x7b, 0x20, 0xff, 0xfe, 0x00, 0x20, 0x7d]));
    expect(lines[0]).toBe(`Invalid config ${file}:1:3: invalid character '\uFFFD'`);
    // A terminal escape in the file is shown escaped, so the message cannot restyle the operator's terminal.
    const escaped = await expectRefused("{ \u001b[31m }");
    expect(escaped[0]).toBe(`Invalid config ${file}:1:3: invalid character '\\x1b'`);
  });
});
