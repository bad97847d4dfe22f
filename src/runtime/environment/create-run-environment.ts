import { dirname } from "node:path";
import { createApprovalBroker } from "../approvals/index.js";
import type { LoadedConfig } from "../config/index.js";
import { createMcpToolSource } from "../mcp-client/index.js";
import { loadPlugins, type PluginLogEntry } from "../plugins/index.js";
import { createFileSessionStore } from "../sessions/index.js";
import { createRunCaches, type RunEnvironment } from "./run-environment.js";

/** Inputs of createRunEnvironment beside the loaded config. */
export interface RunEnvironmentOptions {
  /** Variables agents resolve provider keys and the home directory from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Receives every line the environment and its runs log, already redacted by the caller. Default: dropped. */
  log?: (line: string) => void;
}

/**
 * The one composition root of a process that runs tools (the gateway, `toolsift mcp serve`): loads the
 * plugins (a broken one is logged and skipped), makes the session store, the approval broker of
 * `tools.approval`, the upstream MCP source (nothing starts yet) and the caches, and sizes the catalog
 * cache. Everything below receives the result and reads no file or variable itself.
 */
export async function createRunEnvironment(
  loaded: Pick<LoadedConfig, "config" | "toolSearch" | "path" | "stateDir">,
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
  return {
    config,
    toolSearch: loaded.toolSearch,
    stateDir: loaded.stateDir,
    configDir,
    env: options.env ?? process.env,
    plugins,
    // A state directory that stops taking writes is reported once (and once when it recovers), not per request.
    sessions: createFileSessionStore(loaded.stateDir, options.log ? { onStorageFault: log } : {}),
    approvals: createApprovalBroker({
      ...(approval.mode === undefined ? {} : { mode: approval.mode }),
      ...(approval.require === undefined ? {} : { require: approval.require }),
      ...(approval.timeoutMs === undefined ? {} : { timeoutMs: approval.timeoutMs }),
      ...(options.log ? { log } : {}),
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
