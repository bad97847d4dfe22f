import { describe, expect, it } from "vitest";
import { isToolsiftError, type ToolsiftError } from "../../shared/errors/index.js";
import { resolveToolSearchConfig } from "./resolve-tool-search-config.js";
import type { ModelReference } from "./settings-types.js";

const localModel: ModelReference = { provider: "ollama", id: "qwen3:8b" };
const hostedModel: ModelReference = { provider: "openai", id: "gpt-5.4-mini" };

function thrown(run: () => unknown): ToolsiftError {
  try {
    run();
  } catch (error) {
    if (isToolsiftError(error)) return error;
    throw new Error(`expected a ToolsiftError, got ${String(error)}`);
  }
  throw new Error("expected a ToolsiftError, nothing was thrown");
}

describe("resolveToolSearchConfig: unset (automatic)", () => {
  it("embedded harness: tools mode, 8/20, origin auto", () => {
    expect(resolveToolSearchConfig(undefined)).toEqual({
      enabled: true,
      mode: "tools",
      searchDefaultLimit: 8,
      maxSearchLimit: 20,
      origin: "auto",
    });
    expect(resolveToolSearchConfig(undefined, { harness: "embedded", model: hostedModel })).toEqual({
      enabled: true,
      mode: "tools",
      searchDefaultLimit: 8,
      maxSearchLimit: 20,
      origin: "auto",
    });
  });

  it("copilot harness: tools mode, 8/20", () => {
    expect(resolveToolSearchConfig(undefined, { harness: "copilot" })).toMatchObject({
      enabled: true,
      mode: "tools",
      searchDefaultLimit: 8,
      maxSearchLimit: 20,
    });
  });

  it("local model: 5/10", () => {
    expect(resolveToolSearchConfig(undefined, { model: localModel })).toMatchObject({
      enabled: true,
      searchDefaultLimit: 5,
      maxSearchLimit: 10,
      origin: "auto",
    });
    expect(
      resolveToolSearchConfig(undefined, { harness: "copilot", model: { provider: "lm-studio", id: "m" } }),
    ).toMatchObject({ searchDefaultLimit: 5, maxSearchLimit: 10 });
  });

  it("hosted Ollama cloud model: 8/20", () => {
    expect(
      resolveToolSearchConfig(undefined, { model: { provider: "ollama", id: "gpt-oss:120b-cloud" } }),
    ).toMatchObject({ searchDefaultLimit: 8, maxSearchLimit: 20 });
  });

  it("codex harness keeps its native surface", () => {
    expect(resolveToolSearchConfig(undefined, { harness: "codex" })).toMatchObject({
      enabled: false,
      origin: "auto",
    });
  });

  it("Code Mode takes precedence", () => {
    expect(resolveToolSearchConfig(undefined, { codeModeEnabled: true })).toMatchObject({
      enabled: false,
      origin: "auto",
    });
    expect(resolveToolSearchConfig(undefined, { codeModeEnabled: false }).enabled).toBe(true);
  });
});

describe("resolveToolSearchConfig: explicit values", () => {
  it("true: tools mode with the default limits", () => {
    expect(resolveToolSearchConfig(true)).toEqual({
      enabled: true,
      mode: "tools",
      searchDefaultLimit: 8,
      maxSearchLimit: 20,
      origin: "explicit",
    });
  });

  it("false: off, and it wins over the automatic default", () => {
    expect(resolveToolSearchConfig(false)).toMatchObject({ enabled: false, origin: "explicit" });
    expect(resolveToolSearchConfig(false, { harness: "copilot", model: localModel }).enabled).toBe(false);
  });

  it("an object without mode: tools mode, enabled", () => {
    expect(resolveToolSearchConfig({})).toMatchObject({ enabled: true, mode: "tools", origin: "explicit" });
    expect(resolveToolSearchConfig({ searchDefaultLimit: 4 })).toMatchObject({
      enabled: true,
      mode: "tools",
      searchDefaultLimit: 4,
      maxSearchLimit: 20,
    });
  });

  it("mode tools and mode directory", () => {
    expect(resolveToolSearchConfig({ mode: "tools" })).toMatchObject({ enabled: true, mode: "tools" });
    expect(resolveToolSearchConfig({ mode: "directory" })).toMatchObject({
      enabled: true,
      mode: "directory",
    });
  });

  it("enabled: true enables, enabled: false disables and keeps the options", () => {
    expect(resolveToolSearchConfig({ enabled: true, mode: "directory" })).toMatchObject({
      enabled: true,
      mode: "directory",
    });
    expect(
      resolveToolSearchConfig({
        enabled: false,
        mode: "directory",
        searchDefaultLimit: 4,
        maxSearchLimit: 12,
      }),
    ).toEqual({
      enabled: false,
      mode: "directory",
      searchDefaultLimit: 4,
      maxSearchLimit: 12,
      origin: "explicit",
    });
  });

  it("copilot maps directory mode to tools semantics", () => {
    expect(resolveToolSearchConfig({ mode: "directory" }, { harness: "copilot" })).toMatchObject({
      enabled: true,
      mode: "tools",
    });
  });

  it("codex ignores explicit values: Tool Search settings do not apply", () => {
    expect(resolveToolSearchConfig(true, { harness: "codex" }).enabled).toBe(false);
    expect(resolveToolSearchConfig({ enabled: true, mode: "directory" }, { harness: "codex" }).enabled).toBe(
      false,
    );
  });

  it("Code Mode turns explicit Tool Search off too (the two never run together)", () => {
    expect(resolveToolSearchConfig(true, { codeModeEnabled: true })).toMatchObject({
      enabled: false,
      origin: "explicit",
    });
    expect(resolveToolSearchConfig({ mode: "directory" }, { codeModeEnabled: true }).enabled).toBe(false);
  });

  it("explicit values on a local model use the 8/20 defaults (local defaults apply only when unset)", () => {
    expect(resolveToolSearchConfig(true, { model: localModel })).toMatchObject({
      searchDefaultLimit: 8,
      maxSearchLimit: 20,
    });
    expect(resolveToolSearchConfig({ mode: "tools" }, { model: localModel })).toMatchObject({
      searchDefaultLimit: 8,
      maxSearchLimit: 20,
    });
  });
});

describe("resolveToolSearchConfig: limits", () => {
  const limits = (value: Record<string, unknown>) => {
    const resolved = resolveToolSearchConfig(value);
    return [resolved.searchDefaultLimit, resolved.maxSearchLimit];
  };

  it.each([
    [{ searchDefaultLimit: 4, maxSearchLimit: 12 }, [4, 12]],
    [{ maxSearchLimit: 50 }, [8, 50]],
    [{ maxSearchLimit: 51 }, [8, 50]],
    [{ maxSearchLimit: 1_000_000 }, [8, 50]],
    [{ maxSearchLimit: 3 }, [3, 3]],
    [{ maxSearchLimit: 1 }, [1, 1]],
    [{ searchDefaultLimit: 30 }, [20, 20]],
    [{ searchDefaultLimit: 30, maxSearchLimit: 25 }, [25, 25]],
    [{ searchDefaultLimit: 60, maxSearchLimit: 60 }, [50, 50]],
    [{ maxSearchLimit: 0 }, [8, 20]],
    [{ maxSearchLimit: -5 }, [8, 20]],
    [{ maxSearchLimit: 2.5 }, [8, 20]],
    [{ maxSearchLimit: "30" }, [8, 20]],
    [{ maxSearchLimit: Number.NaN }, [8, 20]],
    [{ maxSearchLimit: Number.POSITIVE_INFINITY }, [8, 20]],
    [{ maxSearchLimit: null }, [8, 20]],
    [{ searchDefaultLimit: 0 }, [8, 20]],
    [{ searchDefaultLimit: 1.5 }, [8, 20]],
    [{ searchDefaultLimit: "4" }, [8, 20]],
    [{ searchDefaultLimit: -1, maxSearchLimit: 5 }, [5, 5]],
  ])("%o → %o", (value, expected) => {
    expect(limits(value)).toEqual(expected);
  });
});

describe("resolveToolSearchConfig: invalid and retired values", () => {
  it('retired mode "code" names the key, says it is retired and names doctor --fix', () => {
    const error = thrown(() => resolveToolSearchConfig({ mode: "code" }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      'tools.toolSearch.mode: "code" is retired (the tool_search_code bridge moved to Code Mode); ' +
        'run toolsift doctor --fix to migrate it to "tools"',
    );
  });

  it("retired codeTimeoutMs, alone or with other keys", () => {
    const alone = thrown(() => resolveToolSearchConfig({ codeTimeoutMs: 2500 }));
    expect(alone.code).toBe("CONFIG_INVALID");
    expect(alone.message).toBe(
      "tools.toolSearch.codeTimeoutMs: retired key (the tool_search_code bridge moved to Code Mode); " +
        "run toolsift doctor --fix to remove it",
    );
    const both = thrown(() =>
      resolveToolSearchConfig({ enabled: false, mode: "code", codeTimeoutMs: 2500, searchDefaultLimit: 4 }),
    );
    expect(both.message.split("\n")).toEqual([
      "tools.toolSearch.codeTimeoutMs: retired key (the tool_search_code bridge moved to Code Mode); " +
        "run toolsift doctor --fix to remove it",
      'tools.toolSearch.mode: "code" is retired (the tool_search_code bridge moved to Code Mode); ' +
        'run toolsift doctor --fix to migrate it to "tools"',
    ]);
  });

  it("retired values are refused whatever the harness or Code Mode", () => {
    expect(thrown(() => resolveToolSearchConfig({ mode: "code" }, { harness: "codex" })).code).toBe(
      "CONFIG_INVALID",
    );
    expect(thrown(() => resolveToolSearchConfig({ codeTimeoutMs: 1 }, { codeModeEnabled: true })).code).toBe(
      "CONFIG_INVALID",
    );
  });

  it.each([
    [{ mode: "fast" }, 'tools.toolSearch.mode: expected "tools" | "directory" (got "fast")'],
    [{ mode: "TOOLS" }, 'tools.toolSearch.mode: expected "tools" | "directory" (got "TOOLS")'],
    [{ mode: 1 }, 'tools.toolSearch.mode: expected "tools" | "directory" (got 1)'],
    [{ mode: null }, 'tools.toolSearch.mode: expected "tools" | "directory" (got null)'],
    [{ mode: ["tools"] }, 'tools.toolSearch.mode: expected "tools" | "directory" (got an array)'],
    [{ enabled: "yes" }, 'tools.toolSearch.enabled: expected true or false (got "yes")'],
    [{ enabled: 1 }, "tools.toolSearch.enabled: expected true or false (got 1)"],
    [
      { serachDefaultLimit: 4 },
      "tools.toolSearch.serachDefaultLimit: unknown key (expected enabled, mode, searchDefaultLimit, maxSearchLimit or alwaysVisible)",
    ],
    ["tools", 'tools.toolSearch: expected true, false or an object (got "tools")'],
    [1, "tools.toolSearch: expected true, false or an object (got 1)"],
    [null, "tools.toolSearch: expected true, false or an object (got null)"],
    [[], "tools.toolSearch: expected true, false or an object (got an array)"],
    [new Date(0), "tools.toolSearch: expected true, false or an object (got an object)"],
    [() => true, "tools.toolSearch: expected true, false or an object (got a function)"],
  ])("%o is refused with a path: reason message", (value, message) => {
    const error = thrown(() => resolveToolSearchConfig(value));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(message);
  });

  it("lists every problem, one per line", () => {
    const error = thrown(() => resolveToolSearchConfig({ enabled: "no", mode: "fast" }));
    expect(error.message).toBe(
      'tools.toolSearch.enabled: expected true or false (got "no")\n' +
        'tools.toolSearch.mode: expected "tools" | "directory" (got "fast")',
    );
  });

  it("an unknown harness is refused", () => {
    const error = thrown(() => resolveToolSearchConfig(undefined, { harness: "codx" as "codex" }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe('harness: expected "embedded" | "copilot" | "codex" (got "codx")');
  });
});

describe("resolveToolSearchConfig: hostile values", () => {
  it("a throwing getter becomes a config error, not a crash", () => {
    const value = Object.defineProperty({}, "mode", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const error = thrown(() => resolveToolSearchConfig(value));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe("tools.toolSearch.mode: could not be read");
  });

  it("a Proxy whose traps throw becomes a config error", () => {
    const value = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("boom");
        },
      },
    );
    const error = thrown(() => resolveToolSearchConfig(value));
    expect(error.message).toBe("tools.toolSearch: could not be read (expected true, false or an object)");
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(thrown(() => resolveToolSearchConfig(revocable.proxy)).code).toBe("CONFIG_INVALID");
  });

  it("a well-behaved Proxy over a plain object is read like the object", () => {
    expect(resolveToolSearchConfig(new Proxy({ mode: "directory", maxSearchLimit: 9 }, {}))).toMatchObject({
      enabled: true,
      mode: "directory",
      maxSearchLimit: 9,
    });
  });

  it("a __proto__ key from JSON is an unknown key, and prototypes are never read", () => {
    const fromJson = JSON.parse('{"__proto__": {"mode": "directory"}}') as unknown;
    expect(thrown(() => resolveToolSearchConfig(fromJson)).message).toBe(
      "tools.toolSearch.__proto__: unknown key (expected enabled, mode, searchDefaultLimit, maxSearchLimit or alwaysVisible)",
    );
    expect(thrown(() => resolveToolSearchConfig({ "max limit\n": 3 })).message).toBe(
      'tools.toolSearch["max limit\\n"]: unknown key (expected enabled, mode, searchDefaultLimit, maxSearchLimit or alwaysVisible)',
    );
    const inherited = Object.create({ mode: "directory" }) as unknown;
    expect(thrown(() => resolveToolSearchConfig(inherited)).message).toBe(
      "tools.toolSearch: expected true, false or an object (got an object)",
    );
  });

  it("huge keys and values are cut in messages", () => {
    const error = thrown(() =>
      resolveToolSearchConfig({ mode: "x".repeat(20_000), ["k".repeat(20_000)]: 1 }),
    );
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).toContain("tools.toolSearch.kkkk");
    expect(error.message).toContain('tools.toolSearch.mode: expected "tools" | "directory" (got "xxx');
  });

  it("an object with a null prototype is accepted", () => {
    const value = Object.assign(Object.create(null) as Record<string, unknown>, { mode: "directory" });
    expect(resolveToolSearchConfig(value).mode).toBe("directory");
  });
});
