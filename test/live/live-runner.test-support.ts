import type { ToolDefinition } from "../../src/catalog/index.js";
import type { ToolsiftConfig } from "../../src/config/index.js";
import type { LoadedPlugins } from "../../src/plugins/index.js";
import { createProvider, type Provider, type ProviderRequest } from "../../src/providers/index.js";
import { createRunner, type Runner } from "../../src/runner/index.js";
import { createFileSessionStore, type SessionStore } from "../../src/sessions/index.js";

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
  const runner = createRunner({
    config: options.config,
    stateDir: options.stateDir,
    sessions,
    plugins,
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
