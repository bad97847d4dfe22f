import { LRUCache } from "lru-cache";
import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ToolSearchSettings } from "../../core/tool-search/index.js";
import type { ApprovalBroker } from "../approvals/index.js";
import type { ToolsiftConfig } from "../config/index.js";
import type { McpToolSource } from "../mcp-client/index.js";
import type { LoadedPlugins } from "../plugins/index.js";
import type { SessionStore } from "../sessions/index.js";
import type { StateStore } from "../state/index.js";
import { createRuntimeCaches, type RuntimeCaches } from "./runtime-caches.js";

/** Most workspaces (and versions of the tool sources) whose tool lists are kept. */
const MAX_GATHERED_LISTS = 64;

/**
 * The caches runs of one environment share: Tool Search's (catalogs, indexes, directories, validators), the
 * policy's verdicts, and the runner's tool lists. Each belongs to the environment that made it, so two
 * environments in one process (a test's, a second config) never see each other's entries.
 */
export interface RunCaches extends RuntimeCaches {
  /** The core tools per workspace: the same definitions run after run let policy verdicts and the catalog be reused. */
  coreToolsByWorkspace: LRUCache<string, readonly ToolDefinition[]>;
  /** The last joined tool list per workspace, with the source lists it was joined from (sources without versions). */
  gatheredByWorkspace: LRUCache<
    string,
    { sources: readonly (readonly ToolDefinition[])[]; tools: readonly ToolDefinition[] }
  >;
  /** The joined tool list of each version of the sources, so one version always hands over one array. */
  gatheredByVersion: LRUCache<string, readonly ToolDefinition[]>;
}

/**
 * What every run of one process shares, built once by createRunEnvironment (the gateway's start and
 * `toolsift mcp serve` both call it): nothing below it reads a file or the process environment again.
 */
export interface RunEnvironment {
  /** The validated config, `env:` values resolved. */
  config: ToolsiftConfig;
  /** `tools.toolSearch`, read once when the config was loaded: runs use it as it is. */
  toolSearch: ToolSearchSettings;
  /** Absolute path of the state directory (session logs, default workspaces). */
  stateDir: string;
  /** The config file's directory: relative workspaces, plugin and MCP paths resolve against it. */
  configDir: string;
  /** The variables agents resolve provider keys and the home directory from. */
  env: NodeJS.ProcessEnv;
  /** Plugins loaded at start: their tools join every run, their hooks see every call and prompt. */
  plugins: LoadedPlugins;
  /** The broker of `tools.approval`: runs wait on it; the gateway publishes its pending requests. */
  approvals: ApprovalBroker;
  /** Where every run's session log goes (`state.sessions`). */
  sessions: SessionStore;
  /**
   * Where the state lives: session logs, stored responses, pending approvals, the per-session run order
   * (files and memory, or the database of `state.url`). Closed by whoever made the environment.
   */
  state: StateStore;
  /** The upstream MCP servers of `mcp.servers`: nothing starts until a run or `mcp.start()` needs them. */
  mcp: McpToolSource;
  caches: RunCaches;
  /** One line per notable event (plugin hook failures, run errors), already redacted. */
  log(line: string): void;
}

/**
 * The parts of the environment a run surface reads: the Tool Search settings, and the plugins' hooks, the
 * approval broker and the log when there are any (default: no hooks, every call approved, nothing logged).
 */
export type RunSurfaceEnvironment = Pick<RunEnvironment, "toolSearch"> & {
  [Key in "plugins" | "log"]?: RunEnvironment[Key];
} & { approvals?: Pick<RunEnvironment["approvals"], "requestApproval"> } & {
  /** What runs share across runs. Default: the library's own caches (libraryRuntimeCaches). */
  caches?: RuntimeCaches;
};

/** Fresh, empty caches for one environment; `catalogCacheSize` is `tools.catalogCacheSize`. */
export function createRunCaches(options: { catalogCacheSize?: number } = {}): RunCaches {
  return {
    ...createRuntimeCaches(options),
    coreToolsByWorkspace: new LRUCache({ max: MAX_GATHERED_LISTS }),
    gatheredByWorkspace: new LRUCache({ max: MAX_GATHERED_LISTS }),
    gatheredByVersion: new LRUCache({ max: MAX_GATHERED_LISTS }),
  };
}
