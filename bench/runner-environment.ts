import { readToolSearchSettings } from "../src/core/tool-search/index.js";
import type { ToolsiftConfig } from "../src/runtime/config/index.js";
import { createRunCaches } from "../src/runtime/environment/index.js";
import type { RunnerEnvironment } from "../src/runtime/runner/index.js";
import type { SessionStore } from "../src/runtime/sessions/index.js";

/** A runner environment for a benchmark: `config`'s Tool Search settings, no plugins, no approvals, no log. */
export function benchRunnerEnvironment(
  config: ToolsiftConfig,
  stateDir: string,
  sessions: SessionStore,
): RunnerEnvironment {
  const toolSearch = readToolSearchSettings(config.tools?.toolSearch).settings;
  if (!toolSearch) throw new Error("the benchmark's tools.toolSearch is invalid");
  return {
    config,
    toolSearch,
    stateDir,
    configDir: stateDir,
    env: {},
    plugins: {
      plugins: [],
      tools: [],
      hooks: { beforeToolCall: [], beforePrompt: [] },
      errors: [],
      skipped: [],
    },
    sessions,
    caches: createRunCaches(),
    log: () => {},
  };
}
