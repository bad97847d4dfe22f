import { dirname } from "node:path";
import { type ApprovalBroker, createApprovalBroker } from "../approvals/index.js";
import { type LoadedConfig, loadConfig } from "../config/index.js";
import { type LoadedPlugins, loadPlugins } from "../plugins/index.js";
import { createRunner, type Runner } from "../runner/index.js";
import { createFileSessionStore, type SessionStore } from "../sessions/index.js";

/** Everything a command that runs agents needs, built from the config file. */
export interface AssembledRuntime {
  loaded: LoadedConfig;
  plugins: LoadedPlugins;
  sessions: SessionStore;
  runner: Runner;
  /** The broker of `tools.approval`: the gateway publishes its pending requests; runs wait on it. */
  approvals: ApprovalBroker;
}

/**
 * Loads the config (a bad file throws CONFIG_INVALID with every problem listed), loads the plugins (a broken
 * plugin is reported through `log` and skipped), and makes the session store, the approval broker and the
 * runner.
 */
export async function assembleRuntime(options: {
  configPath?: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}): Promise<AssembledRuntime> {
  const env = options.env ?? process.env;
  const loaded = await loadConfig({ ...(options.configPath ? { configPath: options.configPath } : {}), env });
  for (const warning of loaded.warnings) options.log?.(`config: ${warning}`);
  const { config } = loaded;
  const plugins = await loadPlugins({
    paths: config.plugins?.load?.paths ?? [],
    ...(config.plugins?.allow ? { allow: config.plugins.allow } : {}),
    ...(config.plugins?.entries ? { entries: config.plugins.entries } : {}),
    baseDir: dirname(loaded.path),
  });
  for (const error of plugins.errors) {
    options.log?.(`plugin ${error.pluginId ?? error.path} skipped: ${error.message}`);
  }
  const sessions = createFileSessionStore(loaded.stateDir);
  const approval = config.tools?.approval ?? {};
  const approvals = createApprovalBroker({
    ...(approval.mode === undefined ? {} : { mode: approval.mode }),
    ...(approval.require === undefined ? {} : { require: approval.require }),
    ...(approval.timeoutMs === undefined ? {} : { timeoutMs: approval.timeoutMs }),
    ...(options.log ? { log: options.log } : {}),
  });
  const runner = createRunner({
    config,
    stateDir: loaded.stateDir,
    configDir: dirname(loaded.path),
    sessions,
    plugins,
    approvals,
    env,
    ...(options.log ? { log: options.log } : {}),
  });
  return { loaded, plugins, sessions, runner, approvals };
}
