import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { resolveEnvReferences } from "./resolve-env-references.js";

describe("resolveEnvReferences", () => {
  it("replaces whole-string env:NAME values anywhere, plugin config included", () => {
    const config = {
      models: { providers: { openai: { api: "openai-responses", apiKey: "env:OPENAI_API_KEY" } } },
      mcp: { servers: { remote: { url: "env:MCP_URL", headers: { Authorization: "env:MCP_AUTH" } } } },
      plugins: { entries: { weather: { config: { keys: ["env:WEATHER_KEY", "literal"] } } } },
    };
    const env = {
      OPENAI_API_KEY: "sk-test",
      MCP_URL: "http://127.0.0.1:1/mcp",
      MCP_AUTH: "Bearer t",
      WEATHER_KEY: "w",
    };
    const { config: resolved, warnings } = resolveEnvReferences(config, env);
    expect(warnings).toEqual([]);
    expect(resolved).toEqual({
      models: { providers: { openai: { api: "openai-responses", apiKey: "sk-test" } } },
      mcp: { servers: { remote: { url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer t" } } } },
      plugins: { entries: { weather: { config: { keys: ["w", "literal"] } } } },
    });
  });

  it("only a whole string is a reference; keys, other prefixes and malformed names stay as written", () => {
    const config = { a: "Bearer env:TOKEN", b: "ENV:TOKEN", c: "env:", "env:TOKEN": "x", d: " env:TOKEN" };
    expect(resolveEnvReferences(config, { TOKEN: "secret" })).toEqual({ config, warnings: [] });
  });

  it("an unset or empty variable leaves the value out and warns, naming the path and the variable", () => {
    const config = {
      models: { providers: { openai: { api: "openai-responses", apiKey: "env:OPENAI_API_KEY" } } },
      gateway: { auth: { token: "env:TOOLSIFT_GATEWAY_TOKEN" } },
      mcp: { servers: { s: { command: "node", args: ["a.js", "env:EXTRA_ARG", "b.js"] } } },
    };
    const { config: resolved, warnings } = resolveEnvReferences(config, { TOOLSIFT_GATEWAY_TOKEN: "" });
    expect(resolved).toEqual({
      models: { providers: { openai: { api: "openai-responses" } } },
      gateway: { auth: {} },
      mcp: { servers: { s: { command: "node", args: ["a.js", "b.js"] } } },
    });
    expect(Object.hasOwn(resolved.models.providers.openai, "apiKey")).toBe(false);
    expect(warnings).toEqual([
      "models.providers.openai.apiKey: environment variable OPENAI_API_KEY is not set",
      "gateway.auth.token: environment variable TOOLSIFT_GATEWAY_TOKEN is empty",
      "mcp.servers.s.args[1]: environment variable EXTRA_ARG is not set",
    ]);
  });

  it("returns a copy and leaves the input unchanged", () => {
    const config = { gateway: { auth: { token: "env:T" } } };
    const before = structuredClone(config);
    const { config: resolved } = resolveEnvReferences(config, { T: "x" });
    expect(config).toEqual(before);
    expect(resolved.gateway).not.toBe(config.gateway);
  });

  it("a __proto__ key stays data: it never becomes a prototype", () => {
    const config = JSON.parse(
      '{"plugins": {"entries": {"w": {"config": {"__proto__": {"polluted": "env:P"}}}}}}',
    );
    const { config: resolved } = resolveEnvReferences(config, { P: "yes" });
    const pluginConfig = resolved.plugins.entries.w.config;
    expect(Object.getPrototypeOf(pluginConfig)).toBe(Object.prototype);
    expect(Object.hasOwn(pluginConfig, "__proto__")).toBe(true);
    expect(pluginConfig.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses nesting past the depth limit with CONFIG_INVALID instead of overflowing the stack", () => {
    const deep = JSON.parse(`${"[".repeat(50_000)}${"]".repeat(50_000)}`);
    try {
      resolveEnvReferences({ x: deep }, {});
      expect.unreachable("expected CONFIG_INVALID");
    } catch (error) {
      expect(isToolsiftError(error) && error.code).toBe("CONFIG_INVALID");
      expect((error as Error).message).toBe(
        `x${"[0]".repeat(31)}: nested deeper than 32 levels; flatten this value.`,
      );
    }
  });
});
