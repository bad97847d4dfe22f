import { type LoadedConfig, loadConfig } from "../../runtime/config/index.js";
import { createRunEnvironment, type RunEnvironment } from "../../runtime/environment/index.js";
import type { McpToolSource } from "../../runtime/mcp-client/index.js";
import { createRunner, type Runner } from "../../runtime/runner/index.js";
import { configSecrets, redactingLog } from "./redacting-log.js";

/** Where a command that runs tools reads its config, and where its log lines go. */
export interface LoadRunEnvironmentOptions {
  /** The config file. Default: the usual lookup (`--config`, `TOOLSIFT_CONFIG`, the state directory). */
  configPath?: string;
  /** Variables `env:` values and agents read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Receives every line, redacted. Default: dropped. */
  log?: (line: string) => void;
  /** See RunEnvironmentOptions.localStateOnly. Default false. */
  localStateOnly?: boolean;
}

/** The config file as loaded, and the run environment built from it. */
export interface LoadedRunEnvironment {
  loaded: LoadedConfig;
  /**
   * Built once by createRunEnvironment: its `log` redacts every line (secret shapes, and the config's own
   * keys and token; see redactingLog), and everything built on it logs through it, as should the caller.
   */
  environment: RunEnvironment;
}

/**
 * What the gateway and `toolsift mcp serve` both start from: loads the config (a bad file throws
 * CONFIG_INVALID with every problem listed), reports its warnings, and builds the run environment once.
 */
export async function loadRunEnvironment(options: LoadRunEnvironmentOptions): Promise<LoadedRunEnvironment> {
  const env = options.env ?? process.env;
  const loaded = await loadConfig({ ...(options.configPath ? { configPath: options.configPath } : {}), env });
  const rawLog = options.log;
  const log = rawLog === undefined ? undefined : redactingLog(rawLog, configSecrets(loaded.config));
  // Config warnings name keys and variables, never values; redactText would read `….token: environment
  // variable X is not set` as a secret assignment and hide the useful part.
  for (const warning of loaded.warnings) rawLog?.(`config: ${warning}`);
  const environment = await createRunEnvironment(loaded, {
    env,
    ...(log ? { log } : {}),
    ...(options.localStateOnly ? { localStateOnly: true } : {}),
  });
  return { loaded, environment };
}

/** Everything a command that runs agents needs: the loaded config, its run environment and a runner on it. */
export interface AssembledRuntime extends LoadedRunEnvironment {
  runner: Runner;
  /** Waits for in-flight runs (bounded) and stops the MCP servers. Same as `runner.close()`. */
  close(): Promise<void>;
}

/**
 * The run environment (loadRunEnvironment) and a runner over it. The upstream MCP servers of `mcp.servers`
 * start when the first run or effective surface needs their tools (or `environment.mcp.start()` is called),
 * so commands that never run an agent spawn nothing.
 */
export async function assembleRuntime(options: LoadRunEnvironmentOptions): Promise<AssembledRuntime> {
  const { loaded, environment } = await loadRunEnvironment(options);
  const { mcp } = environment;
  const runner = withMcpServers(
    createRunner({
      environment,
      // MCP tools join every run; the first run waits for the servers to start (each within its timeout).
      extraTools: async () => {
        await mcp.start();
        return mcp.tools();
      },
      extraToolsVersion: () => mcp.version(),
    }),
    mcp,
  );
  return { loaded, environment, runner, close: () => runner.close() };
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
    ...(runner.searchTools ? { searchTools: runner.searchTools.bind(runner) } : {}),
    ...(runner.describeTool ? { describeTool: runner.describeTool.bind(runner) } : {}),
    async close(timeoutMs) {
      try {
        await runner.close(timeoutMs);
      } finally {
        await mcp.close();
      }
    },
  };
}
