import { dirname } from "node:path";
import { createApprovalBroker } from "../approvals/index.js";
import type { LoadedConfig } from "../config/index.js";
import { createMcpToolSource } from "../mcp-client/index.js";
import { loadPlugins, type PluginLogEntry } from "../plugins/index.js";
import { createFileStateStore, type StateStore } from "../state/index.js";
import { createRunCaches, type RunEnvironment } from "./run-environment.js";

/** Inputs of createRunEnvironment beside the loaded config. */
export interface RunEnvironmentOptions {
  /** Variables agents resolve provider keys and the home directory from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Receives every line the environment and its runs log, already redacted by the caller. Default: dropped. */
  log?: (line: string) => void;
  /**
   * For a command that keeps no state beyond itself (`toolsift search`): the state store is the file store,
   * which does nothing until written to, even when `state.url` names a database. Default false.
   */
  localStateOnly?: boolean;
}

/**
 * The state store of `loaded`: the database of `state.url` when one is set (the driver loads only then),
 * else the JSONL files under the state directory and this process's memory. A store that stops taking
 * writes is reported once through `log` (and once when it recovers), not per request.
 */
export async function openStateStore(
  loaded: Pick<LoadedConfig, "stateDir"> & { stateUrl?: string },
  log?: (line: string) => void,
): Promise<StateStore> {
  if (loaded.stateUrl !== undefined) {
    const { openPostgresState } = await import("../state-postgres/index.js");
    return openPostgresState(loaded.stateUrl, log ? { log } : {});
  }
  return createFileStateStore(loaded.stateDir, log ? { onStorageFault: log } : {});
}

/**
 * The one composition root of a process that runs tools (the gateway, `toolsift mcp serve`): loads the
 * plugins (a broken one is logged and skipped), makes the session store, the approval broker of
 * `tools.approval`, the upstream MCP source (nothing starts yet) and the caches, and sizes the catalog
 * cache. Everything below receives the result and reads no file or variable itself.
 */
export async function createRunEnvironment(
  loaded: Pick<LoadedConfig, "config" | "toolSearch" | "path" | "stateDir"> & { stateUrl?: string },
  options: RunEnvironmentOptions = {},
): Promise<RunEnvironment> {
  const { config } = loaded;
  const log = options.log ?? (() => {});
  const configDir = dirname(loaded.path);
  const plugins = await loadPlugins({
    paths: config.plugins?.load?.paths ?? [],
    ...(config.plugins?.allow ? { allow: config.plugins.allow } : {}),
    ...(config.plugins?.entries ? { entries: config.plugins.entries } : {}),
    baseDir: configDir,
    ...(options.log
      ? { log: (entry: PluginLogEntry) => log(`[plugin ${entry.pluginId}] ${entry.level}: ${entry.message}`) }
      : {}),
  });
  for (const error of plugins.errors) log(`plugin ${error.pluginId ?? error.path} skipped: ${error.message}`);
  const approval = config.tools?.approval ?? {};
  const state = options.localStateOnly
    ? createFileStateStore(loaded.stateDir)
    : await openStateStore(loaded, options.log);
  return {
    config,
    toolSearch: loaded.toolSearch,
    stateDir: loaded.stateDir,
    configDir,
    env: options.env ?? process.env,
    plugins,
    sessions: state.sessions,
    state,
    approvals: createApprovalBroker({
      ...(approval.mode === undefined ? {} : { mode: approval.mode }),
      ...(approval.require === undefined ? {} : { require: approval.require }),
      ...(approval.timeoutMs === undefined ? {} : { timeoutMs: approval.timeoutMs }),
      ...(options.log ? { log } : {}),
      ledger: state.approvals,
    }),
    mcp: createMcpToolSource(config.mcp?.servers ?? {}, {
      baseDir: configDir,
      ...(options.log ? { log } : {}),
    }),
    caches: createRunCaches(
      config.tools?.catalogCacheSize === undefined ? {} : { catalogCacheSize: config.tools.catalogCacheSize },
    ),
    log,
  };
}
