import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ApprovalBroker } from "../approvals/index.js";
import type { ToolsiftConfig } from "../config/index.js";
import type { LoadedPlugins } from "../plugins/index.js";
import type { Provider, ProviderSettings } from "../providers/index.js";
import type { RuntimeCaches } from "../run-surface/index.js";
import type { SessionStore } from "../sessions/index.js";

/** What a runner is made from: the config, where state lives, and the tool sources. */
export interface RunnerOptions {
  config: ToolsiftConfig;
  stateDir: string;
  /** The config file's directory: relative workspaces resolve against it. Default: the working directory. */
  configDir?: string;
  sessions: SessionStore;
  /** Plugins loaded at start; their tools and hooks take part in every run. Default none. */
  plugins?: LoadedPlugins;
  /** Give runs the core tools read/write/edit/exec in the agent's workspace. Default true. */
  coreTools?: boolean;
  /** Further tools for every run (core tools, MCP tools). Default none. */
  extraTools?: () => Promise<readonly ToolDefinition[]> | readonly ToolDefinition[];
  /**
   * The version of what `extraTools` returns now, read right after it (an MCP tool source's `version()`):
   * equal versions mean the very same definitions, so runs find what was derived from them by it. Default:
   * none (they are found by the definitions' identity).
   */
  extraToolsVersion?: () => string | number;
  /** Decides calls that need approval (`tools.approval`); default: every call approved. */
  approvals?: ApprovalBroker;
  /** Provider factory; default: the OpenAI client for `openai-responses` / `openai-chat`, Anthropic's for `anthropic-messages`. */
  createProvider?: (id: string, settings: ProviderSettings) => Provider;
  /** Environment for `OPENAI_API_KEY` defaults. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** One line per notable event (plugin hook failures, run errors). */
  log?: (line: string) => void;
  /**
   * What runs share across runs (catalogs, indexes, directories, validators, policy verdicts). Default: caches
   * of the runner's own, holding `tools.catalogCacheSize` tool sets.
   */
  caches?: RuntimeCaches;
}
