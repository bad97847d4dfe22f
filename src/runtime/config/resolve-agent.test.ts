import path from "node:path";
import { describe, expect, it } from "vitest";
import { thrown } from "../../shared/errors/toolsift-error.test-support.js";
import type { ToolsiftConfig } from "./config-file-types.js";
import { DEFAULT_AGENT_INSTRUCTIONS } from "./default-agent-instructions.js";
import { listAgentIds, resolveAgent } from "./resolve-agent.js";

const stateDir = path.resolve("/var/lib/toolsift");
const noEnv = { env: {} };

describe("resolveAgent: built-in defaults", () => {
  it("main exists with an empty config and gets every default", () => {
    expect(resolveAgent({}, "main", { stateDir, env: { OPENAI_API_KEY: "sk-1" } })).toEqual({
      id: "main",
      model: {
        provider: "openai",
        id: "gpt-5.4-mini",
        settings: { api: "openai-responses", apiKey: "sk-1" },
      },
      harness: "embedded",
      workspace: path.join(stateDir, "workspace", "main"),
      instructions: DEFAULT_AGENT_INSTRUCTIONS,
      maxTurns: 24,
      runTimeoutMs: 600_000,
    });
  });

  it("without OPENAI_API_KEY the default OpenAI settings carry no key", () => {
    expect(resolveAgent({}, "main", { stateDir, ...noEnv }).model.settings).toEqual({
      api: "openai-responses",
    });
    expect(resolveAgent({}, "main", { stateDir, env: { OPENAI_API_KEY: "" } }).model.settings).toEqual({
      api: "openai-responses",
    });
  });

  it("the base instructions are short, non-empty text", () => {
    expect(DEFAULT_AGENT_INSTRUCTIONS.length).toBeGreaterThan(50);
    expect(DEFAULT_AGENT_INSTRUCTIONS.length).toBeLessThan(800);
  });
});

describe("resolveAgent: merging", () => {
  const config: ToolsiftConfig = {
    models: {
      providers: {
        ollama: { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" },
        openrouter: { api: "openai-chat", baseUrl: "https://openrouter.ai/api/v1", apiKey: "or-key" },
      },
    },
    agents: {
      defaults: {
        model: "ollama/qwen3:8b",
        harness: "copilot",
        contextWindowTokens: 32_000,
        maxTurns: 10,
        instructions: "Be brief.",
        experimental: { localModelLean: false },
      },
      list: [
        {
          id: "coder",
          model: "openrouter/anthropic/claude-sonnet",
          harness: "codex",
          maxTurns: 40,
          runTimeoutMs: 30_000,
          workspace: "projects/coder",
          tools: { allow: ["group:fs"], deny: ["exec"] },
          sandbox: { tools: { deny: ["write"] } },
          experimental: { localModelLean: true },
        },
        { id: "plain" },
      ],
    },
  };

  it("an agents.list entry wins over agents.defaults, which wins over the built-in defaults", () => {
    expect(resolveAgent(config, "coder", { stateDir, configDir: "/etc/toolsift", ...noEnv })).toEqual({
      id: "coder",
      model: {
        provider: "openrouter",
        id: "anthropic/claude-sonnet",
        settings: { api: "openai-chat", baseUrl: "https://openrouter.ai/api/v1", apiKey: "or-key" },
      },
      harness: "codex",
      workspace: path.resolve("/etc/toolsift/projects/coder"),
      contextWindowTokens: 32_000,
      instructions: "Be brief.",
      maxTurns: 40,
      runTimeoutMs: 30_000,
      tools: { allow: ["group:fs"], deny: ["exec"] },
      sandbox: { tools: { deny: ["write"] } },
      localModelLean: true,
    });
  });

  it("an entry that sets nothing inherits agents.defaults", () => {
    expect(resolveAgent(config, "plain", { stateDir, ...noEnv })).toEqual({
      id: "plain",
      model: {
        provider: "ollama",
        id: "qwen3:8b",
        settings: { api: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1" },
      },
      harness: "copilot",
      workspace: path.join(stateDir, "workspace", "plain"),
      contextWindowTokens: 32_000,
      instructions: "Be brief.",
      maxTurns: 10,
      runTimeoutMs: 600_000,
      localModelLean: false,
    });
  });

  it("main without a list entry uses agents.defaults", () => {
    expect(resolveAgent(config, "main", { stateDir, ...noEnv })).toMatchObject({
      id: "main",
      model: { provider: "ollama", id: "qwen3:8b" },
      harness: "copilot",
      maxTurns: 10,
    });
  });

  it("a model without provider/ is an OpenAI model; the split is at the first /", () => {
    const bare = resolveAgent({ agents: { defaults: { model: "gpt-5.4" } } }, "main", { stateDir, ...noEnv });
    expect(bare.model).toEqual({ provider: "openai", id: "gpt-5.4", settings: { api: "openai-responses" } });
  });

  it("a configured OpenAI provider keeps its settings and takes OPENAI_API_KEY only when it has no key", () => {
    const withoutKey: ToolsiftConfig = {
      models: { providers: { openai: { api: "openai-chat", baseUrl: "https://proxy.example/v1" } } },
    };
    expect(
      resolveAgent(withoutKey, "main", { stateDir, env: { OPENAI_API_KEY: "sk-env" } }).model.settings,
    ).toEqual({
      api: "openai-chat",
      baseUrl: "https://proxy.example/v1",
      apiKey: "sk-env",
    });
    const withKey: ToolsiftConfig = {
      models: { providers: { openai: { api: "openai-responses", apiKey: "sk-file" } } },
    };
    expect(
      resolveAgent(withKey, "main", { stateDir, env: { OPENAI_API_KEY: "sk-env" } }).model.settings,
    ).toEqual({
      api: "openai-responses",
      apiKey: "sk-file",
    });
  });

  it("an unconfigured provider other than openai has no settings; inherited names are not providers", () => {
    const agent = resolveAgent({ agents: { defaults: { model: "constructor/x" } } }, "main", {
      stateDir,
      ...noEnv,
    });
    expect(agent.model).toEqual({ provider: "constructor", id: "x" });
  });

  it("a workspace under ~ expands to the home directory", () => {
    const agent = resolveAgent({ agents: { defaults: { workspace: "~/code" } } }, "main", {
      stateDir,
      env: { HOME: "/home/ada" },
    });
    expect(agent.workspace).toBe(path.resolve("/home/ada/code"));
  });
});

describe("resolveAgent: errors", () => {
  it("an unknown agent id other than main is refused with the fix", () => {
    const error = thrown(() =>
      resolveAgent({ agents: { list: [{ id: "coder" }] } }, "reviewer", { stateDir, ...noEnv }),
    );
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe('Unknown agent "reviewer": add it to agents.list or use "main".');
  });

  it.each([
    ["../../etc", '"../../etc"'],
    ["a".repeat(500), `"${"a".repeat(45)}..."`],
    ['x"\n', '"x\\"\\n"'],
  ])(
    "a hostile id %#, even one listed by an unvalidated config, is refused and shown escaped",
    (id, shown) => {
      const config: ToolsiftConfig = { agents: { list: [{ id }] } };
      const error = thrown(() => resolveAgent(config, id, { stateDir, ...noEnv }));
      expect(error.code).toBe("CONFIG_INVALID");
      expect(error.message).toBe(`Unknown agent ${shown}: add it to agents.list or use "main".`);
    },
  );

  it("a malformed model (e.g. from an environment variable) is refused naming the fix", () => {
    const error = thrown(() =>
      resolveAgent({ agents: { defaults: { model: "openai/" } } }, "main", { stateDir, ...noEnv }),
    );
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      'Agent "main" has model "openai/": expected "provider/model", e.g. "openai/gpt-5.4-mini". Fix it in agents.list or agents.defaults.',
    );
  });
});

describe("listAgentIds", () => {
  it("main first, then the list in order, without duplicates", () => {
    expect(listAgentIds({})).toEqual(["main"]);
    expect(listAgentIds({ agents: { list: [{ id: "b" }, { id: "main" }, { id: "a" }] } })).toEqual([
      "main",
      "b",
      "a",
    ]);
  });
});
