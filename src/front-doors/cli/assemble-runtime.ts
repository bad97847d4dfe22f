import { dirname } from "node:path";
import { type ApprovalBroker, createApprovalBroker } from "../../runtime/approvals/index.js";
import { type LoadedConfig, loadConfig, type ToolsiftConfig } from "../../runtime/config/index.js";
import { createMcpToolSource, type McpToolSource } from "../../runtime/mcp-client/index.js";
import { type LoadedPlugins, loadPlugins, type PluginLogEntry } from "../../runtime/plugins/index.js";
import { createRunner, type Runner } from "../../runtime/runner/index.js";
import { createFileSessionStore, type SessionStore } from "../../runtime/sessions/index.js";
import { configSecrets, redactingLog } from "./redacting-log.js";

/** Everything a command that runs agents needs, built from the config file. */
export interface AssembledRuntime {
  loaded: LoadedConfig;
  plugins: LoadedPlugins;
  sessions: SessionStore;
  runner: Runner;
  /** The broker of `tools.approval`: the gateway publishes its pending requests; runs wait on it. */
  approvals: ApprovalBroker;
  /**
   * The upstream MCP servers of `mcp.servers`. Nothing starts until the first run or effective surface needs
   * their tools (or `mcp.start()` is called), so commands that never run an agent spawn nothing.
   */
  mcp: McpToolSource;
  /**
   * The `log` given to assembleRuntime, redacting every line: secret shapes, and the config's own keys and
   * token (see redactingLog). Everything assembled here logs through it; so should the caller.
   */
  log: (line: string) => void;
  /** Waits for in-flight runs (bounded) and stops the MCP servers. Same as `runner.close()`. */
  close(): Promise<void>;
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
  const rawLog = options.log;
  const log = rawLog === undefined ? undefined : redactingLog(rawLog, configSecrets(loaded.config));
  // Config warnings name keys and variables, never values; redactText would read `….token: environment
  // variable X is not set` as a secret assignment and hide the useful part.
  for (const warning of loaded.warnings) rawLog?.(`config: ${warning}`);
  // Tool Search settings travel read once (loadConfig read them): the runner never reads the value again.
  const config: ToolsiftConfig =
    loaded.config.tools?.toolSearch === undefined
      ? loaded.config
      : { ...loaded.config, tools: { ...loaded.config.tools, toolSearch: loaded.toolSearch } };
  const plugins = await loadPlugins({
    paths: config.plugins?.load?.paths ?? [],
    ...(config.plugins?.allow ? { allow: config.plugins.allow } : {}),
    ...(config.plugins?.entries ? { entries: config.plugins.entries } : {}),
    baseDir: dirname(loaded.path),
    // What plugins log (api.log) goes through the same redaction as every other line.
    ...(log
      ? { log: (entry: PluginLogEntry) => log(`[plugin ${entry.pluginId}] ${entry.level}: ${entry.message}`) }
      : {}),
  });
  for (const error of plugins.errors) {
    log?.(`plugin ${error.pluginId ?? error.path} skipped: ${error.message}`);
  }
  // A state directory that stops taking writes is reported once (and once when it recovers), not per request.
  const sessions = createFileSessionStore(loaded.stateDir, log ? { onStorageFault: log } : {});
  const approval = config.tools?.approval ?? {};
  const approvals = createApprovalBroker({
    ...(approval.mode === undefined ? {} : { mode: approval.mode }),
    ...(approval.require === undefined ? {} : { require: approval.require }),
    ...(approval.timeoutMs === undefined ? {} : { timeoutMs: approval.timeoutMs }),
    ...(log ? { log } : {}),
  });
  const mcp = createMcpToolSource(config.mcp?.servers ?? {}, {
    baseDir: dirname(loaded.path),
    ...(log ? { log } : {}),
  });
  const runner = withMcpServers(
    createRunner({
      config,
      stateDir: loaded.stateDir,
      configDir: dirname(loaded.path),
      sessions,
      plugins,
      approvals,
      env,
      // MCP tools join every run; the first run waits for the servers to start (each within its timeout).
      extraTools: async () => {
        await mcp.start();
        return mcp.tools();
      },
      extraToolsVersion: () => mcp.version(),
      ...(log ? { log } : {}),
    }),
    mcp,
  );
  return {
    loaded,
    plugins,
    sessions,
    runner,
    approvals,
    mcp,
    log: log ?? (() => {}),
    close: () => runner.close(),
  };
}

/**
 * The runner with the MCP servers attached: the effective surface reports each server's status
 * (`servers`, when any is configured), and closing the runner stops the servers too.
 */
function withMcpServers(runner: Runner, mcp: McpToolSource): Runner {
  return {
    run: (request) => runner.run(request),
    async effectiveSurface(agentId) {
      const surface = await runner.effectiveSurface(agentId);
      const servers = mcp.status();
      return servers.length === 0 ? surface : { ...surface, servers };
    },
    agentIds: () => runner.agentIds(),
    ...(runner.warm ? { warm: runner.warm.bind(runner) } : {}),
    ...(runner.countInputTokens ? { countInputTokens: runner.countInputTokens.bind(runner) } : {}),
    ...(runner.providerStatus ? { providerStatus: runner.providerStatus.bind(runner) } : {}),
    async close(timeoutMs) {
      try {
        await runner.close(timeoutMs);
      } finally {
        await mcp.close();
      }
    },
  };
}
