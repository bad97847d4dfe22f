import type { ToolDefinition } from "../../src/core/catalog/index.js";
import { readToolSearchSettings } from "../../src/core/tool-search/index.js";
import type { ToolsiftConfig } from "../../src/runtime/config/index.js";
import { createRunCaches } from "../../src/runtime/environment/index.js";
import type { LoadedPlugins } from "../../src/runtime/plugins/index.js";
import { createProvider, type Provider, type ProviderRequest } from "../../src/runtime/providers/index.js";
import { createRunner, type Runner } from "../../src/runtime/runner/index.js";
import { createFileSessionStore, type SessionStore } from "../../src/runtime/sessions/index.js";

/**
 * A runner over the real provider of `config`, with `tools` as one plugin's tools and file sessions in
 * `stateDir`; every request the provider is sent is pushed onto `requests`, for the test to inspect.
 */
export function liveRunner(options: {
  config: ToolsiftConfig;
  stateDir: string;
  tools: ToolDefinition[];
  requests: ProviderRequest[];
}): { runner: Runner; sessions: SessionStore } {
  const plugins: LoadedPlugins = {
    plugins: [],
    tools: options.tools,
    hooks: { beforeToolCall: [], beforePrompt: [] },
    errors: [],
    skipped: [],
  };
  const sessions = createFileSessionStore(options.stateDir);
  const toolSearch = readToolSearchSettings(options.config.tools?.toolSearch).settings;
  if (!toolSearch) throw new Error("the live test's tools.toolSearch is invalid");
  const runner = createRunner({
    environment: {
      config: options.config,
      toolSearch,
      stateDir: options.stateDir,
      configDir: process.cwd(),
      env: process.env,
      plugins,
      sessions,
      caches: createRunCaches(),
      log: () => {},
    },
    createProvider: (id, settings): Provider => {
      const real = createProvider(id, settings);
      return {
        id,
        complete: (request) => {
          options.requests.push(request);
          return real.complete(request);
        },
      };
    },
  });
  return { runner, sessions };
}

/** A plugin tool of the live tests: it takes a city name (nothing else) and runs `execute`. */
export function cityTool(
  name: string,
  description: string,
  execute: ToolDefinition["execute"],
): ToolDefinition {
  return {
    name,
    description,
    origin: { kind: "plugin", owner: "live" },
    parameters: {
      type: "object",
      properties: { city: { type: "string", description: "City name" } },
      required: ["city"],
      additionalProperties: false,
    },
    execute,
  };
}
