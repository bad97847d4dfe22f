import { describe, expect, expectTypeOf, it } from "vitest";
import type { ProviderSettings } from "../providers/index.js";
import type { ToolsiftConfig } from "./config-file-types.js";
import { validateConfig } from "./validate-config.js";

const lines = (raw: unknown) => validateConfig(raw).map((issue) => `${issue.path}: ${issue.message}`);

/** A file that sets every key the schema knows, with valid values. */
const everyKeyConfig = {
  models: {
    providers: {
      openai: {
        api: "openai-responses",
        baseUrl: "https://api.openai.com/v1",
        apiKey: "env:OPENAI_API_KEY",
        localService: false,
        timeoutMs: 120_000,
        maxRetries: 2,
        headers: { "X-Team": "tools" },
      },
      ollama: { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" },
      anthropic: { api: "anthropic-messages", apiKey: "env:ANTHROPIC_API_KEY" },
    },
  },
  agents: {
    defaults: {
      model: "openai/gpt-5.4-mini",
      harness: "embedded",
      workspace: "./work",
      contextWindowTokens: 200_000,
      instructions: "",
      maxTurns: 24,
      runTimeoutMs: 600_000,
      experimental: { localModelLean: false },
    },
    list: [
      {
        id: "main",
        model: "ollama/qwen3:8b",
        harness: "copilot",
        tools: { profile: "coding", allow: ["group:fs", "weather_*"], alsoAllow: ["exec"], deny: ["exec"] },
        sandbox: { tools: { deny: ["write"] } },
      },
      { id: "coder.v2", model: "gpt-5.4" },
    ],
  },
  tools: {
    toolSearch: { mode: "directory", searchDefaultLimit: 8, maxSearchLimit: 20 },
    profile: "full",
    allow: [],
    deny: [],
    alsoAllow: [],
    approval: { require: ["exec"], mode: "ask", timeoutMs: 60_000 },
  },
  plugins: {
    load: { paths: ["./plugins"] },
    allow: ["weather"],
    entries: { weather: { config: { units: "metric", key: "env:WEATHER_KEY", nested: [{ a: 1 }] } } },
  },
  mcp: {
    servers: {
      calendar: {
        command: "node",
        args: ["calendar-server.js", ""],
        env: { TZ: "UTC" },
        cwd: "/srv",
        timeoutMs: 5000,
      },
      remote: { url: "http://127.0.0.1:8080/mcp", headers: { Authorization: "env:MCP_TOKEN" } },
    },
  },
  codeMode: { enabled: false, timeoutMs: 10_000 },
  telemetry: {
    otlp: { endpoint: "http://127.0.0.1:4318", headers: { authorization: "Bearer x" } },
    captureToolContent: false,
  },
  gateway: {
    bind: "127.0.0.1",
    port: 18_789,
    auth: {
      token: "env:TOOLSIFT_GATEWAY_TOKEN",
      keys: [
        { id: "alice", token: "env:ALICE_TOKEN", scopes: ["runs", "sessions:read", "approvals"] },
        { id: "ci-bot", token: "env:CI_TOKEN", scopes: ["runs"], agents: ["main", "coder.v2"] },
        { id: "ops", token: "env:OPS_TOKEN", scopes: ["admin"] },
      ],
    },
    maxBodyBytes: 1_048_576,
    hostedTools: "reject",
    trustedProxies: ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8", "env:TOOLSIFT_PROXY"],
  },
};

describe("validateConfig: valid files", () => {
  it.each<[string, unknown]>([
    ["an empty file", {}],
    ["every key set", everyKeyConfig],
    ["tools.toolSearch true", { tools: { toolSearch: true } }],
    ["tools.toolSearch false", { tools: { toolSearch: false } }],
    ["port 0 (pick a free port)", { gateway: { port: 0, bind: "::" } }],
    ["a bare model id (OpenAI)", { agents: { defaults: { model: "gpt-5.4-mini" } } }],
    [
      "a model id with slashes after the provider",
      {
        models: { providers: { openrouter: { api: "openai-chat" } } },
        agents: { defaults: { model: "openrouter/anthropic/claude" } },
      },
    ],
    [
      "env references in URL fields",
      {
        models: { providers: { ollama: { api: "openai-chat", baseUrl: "env:OLLAMA_URL" } } },
        gateway: { bind: "env:BIND" },
      },
    ],
    ["a host name to bind", { gateway: { bind: "localhost" } }],
  ])("%s", (_, raw) => {
    expect(lines(raw)).toEqual([]);
  });

  it("accepts an example that sets every key of every section", () => {
    // The providers read a provider entry as their own ProviderSettings: same keys (checked by tsc).
    type ProviderEntry = NonNullable<NonNullable<ToolsiftConfig["models"]>["providers"]>[string];
    expectTypeOf<keyof ProviderEntry>().toEqualTypeOf<keyof ProviderSettings>();
    expectTypeOf<ProviderEntry>().toExtend<ProviderSettings>();
    expect(Object.keys(everyKeyConfig).sort()).toEqual(
      ["agents", "codeMode", "gateway", "mcp", "models", "plugins", "telemetry", "tools"].sort(),
    );
    expect(lines(everyKeyConfig)).toEqual([]);
  });
});

describe("validateConfig: every problem as path: reason", () => {
  it.each<[string, unknown, string[]]>([
    ["top level is an array", [], ["(top level): expected an object (got an array)"]],
    ["top level is null", null, ["(top level): expected an object (got null)"]],
    ["top level is a string", "tools", ['(top level): expected an object (got "tools")']],
    [
      "a typo at the top level",
      { gatewy: {} },
      [
        "gatewy: unknown key (expected models, agents, tools, plugins, mcp, codeMode, sessions, telemetry, gateway or state)",
      ],
    ],
    [
      "gateway: port out of range, typo, bad bind",
      { gateway: { port: 70_000, prot: 1, bind: "not a host!" } },
      [
        'gateway.bind: expected an IP address or host name, e.g. "127.0.0.1" (got "not a host!")',
        "gateway.port: expected an integer between 0 and 65535 (got 70000)",
        "gateway.prot: unknown key (expected bind, port, auth, maxBodyBytes, maxQueuedPerSession, hostedTools, console, cors, allowedHosts or trustedProxies)",
      ],
    ],
    [
      "mcp.serve: limits out of range, a typo",
      { mcp: { serve: { maxSessions: 0, sessionIdleMs: 999, maxSessionLogBytes: 1024, maxSesions: 5 } } },
      [
        "mcp.serve.maxSessions: expected an integer between 1 and 10000 (got 0)",
        "mcp.serve.sessionIdleMs: expected an integer between 1000 and 86400000 (got 999)",
        "mcp.serve.maxSessionLogBytes: expected an integer between 65536 and 1073741824 (got 1024)",
        "mcp.serve.maxSesions: unknown key (expected maxSessions, sessionIdleMs or maxSessionLogBytes)",
      ],
    ],
    [
      "gateway: origins with a path or another scheme, hosts with a scheme or a port",
      {
        gateway: {
          cors: { allowOrigins: ["http://localhost:3000", "http://app.example/ui", "file://x", 3] },
          allowedHosts: ["toolsift.internal", "http://toolsift.internal", "toolsift.internal:8080"],
        },
      },
      [
        'gateway.cors.allowOrigins[1]: remove "/ui": an origin is scheme://host[:port], without a path, query or fragment (got "http://app.example/ui")',
        'gateway.cors.allowOrigins[2]: expected an http:// or https:// origin, not file:// (got "file://x")',
        "gateway.cors.allowOrigins[3]: expected a string (got 3)",
        'gateway.allowedHosts[1]: leave out the scheme: write the host name alone, e.g. "toolsift.internal" (got "http://toolsift.internal")',
        'gateway.allowedHosts[2]: leave out the port: every port of an allowed host is accepted (got "toolsift.internal:8080")',
      ],
    ],
    [
      "gateway.trustedProxies: a host name, a prefix too long, a port, not a string",
      {
        gateway: {
          trustedProxies: [
            "127.0.0.1",
            "10.0.0.0/8",
            "fd00::/8",
            "proxy.internal",
            "10.0.0.0/33",
            "10.0.0.1:80",
            7,
          ],
        },
      },
      [
        'gateway.trustedProxies[3]: expected an IP address or a CIDR range, e.g. "127.0.0.1", "10.0.0.0/8" or "fd00::/8" (host names are not resolved) (got "proxy.internal")',
        'gateway.trustedProxies[4]: expected an IP address or a CIDR range, e.g. "127.0.0.1", "10.0.0.0/8" or "fd00::/8" (host names are not resolved) (got "10.0.0.0/33")',
        'gateway.trustedProxies[5]: expected an IP address or a CIDR range, e.g. "127.0.0.1", "10.0.0.0/8" or "fd00::/8" (host names are not resolved) (got "10.0.0.1:80")',
        "gateway.trustedProxies[6]: expected a string (got 7)",
      ],
    ],
    [
      "gateway.trustedProxies not a list",
      { gateway: { trustedProxies: "10.0.0.0/8" } },
      [
        'gateway.trustedProxies: expected a list of IP addresses and CIDR ranges ("10.0.0.0/8") (got "10.0.0.0/8")',
      ],
    ],
    [
      "gateway.hostedTools neither omit nor reject",
      { gateway: { hostedTools: "drop" } },
      ['gateway.hostedTools: expected "omit" | "reject" (got "drop")'],
    ],
    [
      "port not an integer",
      { gateway: { port: 80.5 } },
      ["gateway.port: expected an integer between 0 and 65535 (got 80.5)"],
    ],
    [
      "port a string",
      { gateway: { port: "80" } },
      ['gateway.port: expected an integer between 0 and 65535 (got "80")'],
    ],
    [
      "port Infinity (JSON5 allows it)",
      { gateway: { port: Number.POSITIVE_INFINITY } },
      ["gateway.port: expected an integer between 0 and 65535 (got Infinity)"],
    ],
    [
      "an env reference where a number is expected",
      { gateway: { port: "env:PORT" } },
      [
        'gateway.port: expected an integer between 0 and 65535 (got "env:PORT"; "env:NAME" references work only in string values)',
      ],
    ],
    [
      "malformed env reference",
      { gateway: { auth: { token: "env:my token" } } },
      ['gateway.auth.token: "env:" must be followed by an environment variable name (letters, digits and _)'],
    ],
    [
      "empty token",
      { gateway: { auth: { token: "" } } },
      ['gateway.auth.token: expected a non-empty string (got "")'],
    ],
    [
      "gateway.auth.keys: bad id, empty token, no scopes, unknown scope, bad agent id, missing id, unknown field",
      {
        gateway: {
          auth: {
            keys: [
              { id: "al.ice", token: "t1", scopes: ["runs"] },
              { id: "b", token: "", scopes: [] },
              { id: "c", token: "t3", scopes: ["root"], agents: ["bad id!"] },
              { token: "t4", scopes: ["runs"], extra: 1 },
            ],
          },
        },
      },
      [
        'gateway.auth.keys[0].id: expected a key id of 1 to 32 letters, digits, "_" and "-", starting with a letter or digit (got "al.ice")',
        'gateway.auth.keys[1].token: expected a non-empty string (got "")',
        "gateway.auth.keys[1].scopes: expected at least one scope (runs, sessions:read, approvals, admin) (got an array)",
        'gateway.auth.keys[2].scopes[0]: expected "runs" | "sessions:read" | "approvals" | "admin" (got "root")',
        'gateway.auth.keys[2].agents[0]: expected an id of letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit) (got "bad id!")',
        "gateway.auth.keys[3].id: required",
        "gateway.auth.keys[3].extra: unknown key (expected id, token, scopes or agents)",
      ],
    ],
    [
      "gateway.auth.keys: ids and tokens must be unique, and the id admin belongs to gateway.auth.token",
      {
        gateway: {
          auth: {
            token: "same",
            keys: [
              { id: "admin", token: "same", scopes: ["admin"] },
              { id: "x", token: "t", scopes: ["runs"] },
              { id: "x", token: "t", scopes: ["runs"] },
            ],
          },
        },
      },
      [
        'gateway.auth.keys[0].id: the id "admin" is taken by gateway.auth.token (the admin key): rename this key',
        "gateway.auth.keys[0].token: the same token as gateway.auth.token: every key needs its own token",
        'gateway.auth.keys[2].id: the id "x" is already used by keys[1]: give every key its own id',
        "gateway.auth.keys[2].token: the same token as keys[1]: every key needs its own token",
      ],
    ],
    [
      "gateway.auth.keys not a list",
      { gateway: { auth: { keys: "alice" } } },
      ['gateway.auth.keys: expected a list of keys ({ id, token, scopes, agents? }) (got "alice")'],
    ],
    [
      "agents.list entries: missing id, bad list value, duplicate id",
      { agents: { list: [{ model: "gpt-5.4" }, { id: "a" }, { id: "a", tools: { allow: "x" } }] } },
      [
        "agents.list[0].id: required",
        'agents.list[2].tools.allow: expected a list of strings (got "x")',
        'agents.list[2].id: duplicate agent id "a" (first at agents.list[1])',
      ],
    ],
    [
      "agent ids that are not safe path segments",
      { agents: { list: [{ id: "../etc" }, { id: "" }, { id: "a b" }] } },
      [
        'agents.list[0].id: expected an id of letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit) (got "../etc")',
        'agents.list[1].id: expected an id of letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit) (got "")',
        'agents.list[2].id: expected an id of letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit) (got "a b")',
      ],
    ],
    [
      "agents.list not a list",
      { agents: { list: { main: {} } } },
      ["agents.list: expected a list of agents ({ id, … }) (got an object)"],
    ],
    [
      "agent settings: harness, maxTurns, model",
      { agents: { defaults: { harness: "claude", maxTurns: 0, model: "openai/" } } },
      [
        'agents.defaults.model: expected "provider/model", e.g. "openai/gpt-5.4-mini" (got "openai/")',
        'agents.defaults.harness: expected "embedded" | "copilot" | "codex" (got "claude")',
        "agents.defaults.maxTurns: expected an integer between 1 and 1000 (got 0)",
      ],
    ],
    [
      "a model whose provider is not configured",
      { agents: { defaults: { model: "anthropic/claude" }, list: [{ id: "x", model: "opneai/gpt-5.4" }] } },
      [
        'agents.defaults.model: provider "anthropic" is not configured (add it under models.providers, or use an "openai/…" model)',
        'agents.list[0].model: provider "opneai" is not configured (add it under models.providers, or use an "openai/…" model)',
      ],
    ],
    [
      "experimental typo",
      { agents: { defaults: { experimental: { localModelLen: false } } } },
      ["agents.defaults.experimental.localModelLen: unknown key (expected localModelLean)"],
    ],
    [
      "tools: bad profile and retired Tool Search keys",
      { tools: { toolSearch: { mode: "code", codeTimeoutMs: 5 }, profile: "all" } },
      [
        'tools.profile: expected "minimal" | "coding" | "full" (got "all")',
        "tools.toolSearch.codeTimeoutMs: retired key (the tool_search_code bridge moved to Code Mode); run toolsift doctor --fix to remove it",
        'tools.toolSearch.mode: "code" is retired (the tool_search_code bridge moved to Code Mode); run toolsift doctor --fix to migrate it to "tools"',
      ],
    ],
    [
      "tools.toolSearch: unknown mode",
      { tools: { toolSearch: { mode: "fast" } } },
      ['tools.toolSearch.mode: expected "tools" | "directory" (got "fast")'],
    ],
    [
      "tools.toolSearch: a string",
      { tools: { toolSearch: "tools" } },
      ['tools.toolSearch: expected true, false or an object (got "tools")'],
    ],
    [
      "approval mode and timeout",
      { tools: { approval: { mode: "never", timeoutMs: -1 } } },
      [
        'tools.approval.mode: expected "ask" | "allow" | "deny" (got "never")',
        "tools.approval.timeoutMs: expected an integer between 1 and 86400000 (got -1)",
      ],
    ],
    [
      "providers: bad id, missing api, bad URL",
      { models: { providers: { "my provider": { api: "openai-chat" }, ollama: { baseUrl: "ftp://x" } } } },
      [
        'models.providers["my provider"]: expected an id of letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)',
        'models.providers.ollama.api: required (expected "openai-responses" | "openai-chat" | "anthropic-messages")',
        'models.providers.ollama.baseUrl: expected an http:// or https:// URL (got "ftp://x")',
      ],
    ],
    [
      "provider: retries and header names",
      {
        models: { providers: { p: { api: "openai-chat", maxRetries: 11, headers: { "Bad Header": "x" } } } },
      },
      [
        "models.providers.p.maxRetries: expected an integer between 0 and 10 (got 11)",
        'models.providers.p.headers["Bad Header"]: expected an HTTP header name (letters, digits, -)',
      ],
    ],
    [
      "MCP servers: neither, both, empty command, bad env name",
      {
        mcp: {
          servers: { a: {}, b: { command: "x", url: "http://x" }, c: { command: "", env: { "A=B": "x" } } },
        },
      },
      [
        "mcp.servers.a: expected command (stdio) or url (Streamable HTTP)",
        "mcp.servers.b: set command (stdio) or url (Streamable HTTP), not both",
        'mcp.servers.c.command: expected a non-empty string (got "")',
        'mcp.servers.c.env["A=B"]: expected a variable name without "="',
      ],
    ],
    [
      "plugins: typo in an entry, paths not a list",
      { plugins: { load: { paths: "./plugins" }, entries: { weather: { confg: {} } } } },
      [
        'plugins.load.paths: expected a list of strings (got "./plugins")',
        "plugins.entries.weather.confg: unknown key (expected config)",
      ],
    ],
    [
      "codeMode enabled not a boolean",
      { codeMode: { enabled: "yes" } },
      ['codeMode.enabled: expected true or false (got "yes")'],
    ],
  ])("%s", (_, raw, expected) => {
    expect(lines(raw)).toEqual(expected);
  });
});

describe("validateConfig: hostile values", () => {
  it("__proto__ keys are refused anywhere, and nothing reaches Object.prototype", () => {
    const raw = JSON.parse(
      '{"__proto__": {"polluted": 1}, "plugins": {"entries": {"__proto__": {}, "w": {"config": {"__proto__": {"polluted": 2}}}}},' +
        ' "tools": {"toolSearch": {"__proto__": {"mode": "x"}}}}',
    );
    expect(lines(raw)).toEqual([
      '__proto__: "__proto__" is not allowed as a key',
      'plugins.entries.__proto__: "__proto__" is not allowed as a key',
      'plugins.entries.w.config.__proto__: "__proto__" is not allowed as a key',
      'tools.toolSearch.__proto__: "__proto__" is not allowed as a key',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("nesting deeper than 32 levels is refused at the level where it goes too deep", () => {
    const raw = {
      plugins: { entries: { w: { config: JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`) } } },
    };
    const [line, ...rest] = lines(raw);
    expect(rest).toEqual([]);
    expect(line).toBe(`plugins.entries.w.config${"[0]".repeat(28)}: nested deeper than 32 levels`);
  });

  it("throwing getters, Proxies and non-JSON values become issues, never exceptions", () => {
    const throwing = Object.defineProperty({}, "gateway", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(lines(throwing)).toEqual(["(top level): could not be read"]);
    expect(lines({ gateway: revocable.proxy })).toEqual(["gateway: could not be read"]);
    expect(lines({ plugins: { entries: { w: { config: { when: new Date(0), run: () => 1 } } } } })).toEqual([
      "plugins.entries.w.config.when: expected JSON data (got an object)",
      "plugins.entries.w.config.run: expected JSON data (got a function)",
    ]);
  });

  it("a huge key is cut in the path", () => {
    const key = "k".repeat(10_000);
    const [line] = lines({ [key]: 1 });
    expect(line!.length).toBeLessThan(200);
    expect(line).toMatch(/^k+\.\.\.: unknown key/u);
  });
});
