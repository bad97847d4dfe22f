import { DEFAULT_CATALOG_CACHE_SIZE, setCatalogCacheSize } from "../../core/catalog/index.js";
import { resolveToolSearchConfig } from "../../core/tool-search/index.js";
import type { McpToolSource } from "../../runtime/mcp-client/index.js";
import { policyLayersFor } from "../../runtime/policy/index.js";
import { type RunningTelemetry, startConfiguredTelemetry } from "../../runtime/telemetry/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { escapeControlCharacters } from "../../shared/text/index.js";
import { isLoopbackHost } from "../gateway/index.js";
import {
  createMcpFrontend,
  type HttpMcpServer,
  MCP_AGENT_ID,
  type McpFrontend,
  type StdioMcpServer,
  serveMcpHttp,
  serveMcpStdio,
} from "../mcp-server/index.js";
import { type AssembledRuntime, assembleRuntime } from "./assemble-runtime.js";
import type { McpCommandDeps } from "./mcp-command.js";
import { DEFAULT_MCP_HTTP_HOST } from "./mcp-command.js";
import { waitForSignal } from "./server-options.js";
import type { CliIo } from "./types.js";

/** The options of `toolsift mcp serve`, as commander parsed them. */
export type ServeOptions = { config?: string; http?: number; bind?: string };

/**
 * What `toolsift mcp serve` does: assembles the runtime, serves it over MCP (stdio, or Streamable HTTP with
 * `--http`) until the client leaves or a signal arrives, then closes everything it opened.
 */
export async function runServe(io: CliIo, deps: McpCommandDeps, options: ServeOptions): Promise<void> {
  // One line per entry, whatever a client, model or tool put in it.
  const log = (line: string) => io.stderr(`${escapeControlCharacters(line)}\n`);
  const stdio = options.http === undefined;
  // In stdio mode stdout is the protocol: whatever a plugin prints with console.log goes to stderr.
  const restoreConsole = stdio ? routeConsoleToStderr() : () => {};
  const shutdown = (deps.waitForShutdown ?? waitForSignal)();
  let runtime: AssembledRuntime | undefined;
  let frontend: McpFrontend | undefined;
  let served: StdioMcpServer | HttpMcpServer | undefined;
  let telemetry: RunningTelemetry | undefined;
  try {
    runtime = await assembleRuntime({ ...(options.config ? { configPath: options.config } : {}), log });
    const { config } = runtime.loaded;
    // Traces and metrics over OTLP/HTTP when an endpoint is configured; the SDK loads only then.
    telemetry = await startConfiguredTelemetry({
      ...(config.telemetry ? { config: config.telemetry } : {}),
      log: runtime.log,
    });
    resolveToolSearchConfig(config.tools?.toolSearch, { harness: "embedded" }); // refuses a bad value now
    const host = options.bind ?? DEFAULT_MCP_HTTP_HOST;
    const token = config.gateway?.auth?.token;
    const keys = config.gateway?.auth?.keys ?? [];
    if (!stdio && !isLoopbackHost(host) && token === undefined && keys.length === 0) {
      throw new ToolsiftError(
        "CONFIG_INVALID",
        `Refusing to serve MCP on ${host} without an auth token or keys: set gateway.auth.token or ` +
          `gateway.auth.keys in ${runtime.loaded.path} (for example "env:TOOLSIFT_GATEWAY_TOKEN"), or bind to 127.0.0.1.`,
      );
    }
    await runtime.mcp.start();
    log(startSummary(runtime.mcp, runtime.plugins.tools.length));
    // The global policy, narrowed by an `agents.list` entry with id "mcp" when there is one.
    const agent = config.agents?.list?.find((entry) => entry.id === MCP_AGENT_ID) ?? { id: MCP_AGENT_ID };
    setCatalogCacheSize(config.tools?.catalogCacheSize ?? DEFAULT_CATALOG_CACHE_SIZE);
    const serveSettings = config.mcp?.serve ?? {};
    frontend = createMcpFrontend({
      source: runtime.mcp,
      policy: policyLayersFor(config, agent),
      tools: runtime.plugins.tools,
      plugins: runtime.plugins,
      approvals: runtime.approvals,
      toolSearch: config.tools?.toolSearch,
      ...(config.agents?.defaults?.contextWindowTokens === undefined
        ? {}
        : { contextWindowTokens: config.agents.defaults.contextWindowTokens }),
      sessions: runtime.sessions,
      ...(serveSettings.maxSessionLogBytes === undefined
        ? {}
        : { maxSessionLogBytes: serveSettings.maxSessionLogBytes }),
      log,
    });
    if (stdio) {
      const stdioServer = await serveMcpStdio(frontend, {
        ...(deps.stdin ? { stdin: deps.stdin } : {}),
        ...(deps.stdout ? { stdout: deps.stdout } : {}),
      });
      served = stdioServer;
      log(`toolsift mcp serve: serving MCP over stdio (session ${stdioServer.sessionKey})`);
      await Promise.race([stdioServer.closed, shutdown.signal]);
    } else {
      const httpServer = await serveMcpHttp(frontend, {
        port: options.http ?? 0,
        host,
        log,
        ...(token === undefined ? {} : { token }),
        ...(keys.length === 0 ? {} : { keys }),
        ...(config.gateway?.cors?.allowOrigins === undefined
          ? {}
          : { allowOrigins: config.gateway.cors.allowOrigins }),
        ...(config.gateway?.allowedHosts === undefined ? {} : { allowedHosts: config.gateway.allowedHosts }),
        ...(serveSettings.maxSessions === undefined ? {} : { maxSessions: serveSettings.maxSessions }),
        ...(serveSettings.sessionIdleMs === undefined ? {} : { sessionIdleMs: serveSettings.sessionIdleMs }),
      });
      served = httpServer;
      log(`toolsift mcp serve listening on ${httpServer.url}`);
      if (token !== undefined || keys.length > 0)
        log(
          'toolsift mcp serve: every request needs a key with the "runs" scope (gateway.auth.token or gateway.auth.keys)',
        );
      await shutdown.signal;
    }
  } finally {
    shutdown.dispose();
    await served?.close().catch(() => {});
    await frontend?.close().catch(() => {});
    await runtime?.close().catch(() => {});
    runtime?.approvals.close();
    await telemetry?.shutdown();
    restoreConsole();
  }
}

/** One line on how the upstream servers started: how many are ready, and why the others are not. */
function startSummary(mcp: McpToolSource, pluginTools: number): string {
  const servers = mcp.status();
  const ready = servers.filter((server) => server.status === "ready");
  const tools = ready.reduce((sum, server) => sum + server.tools, 0);
  const failed = servers.filter((server) => server.status !== "ready");
  const problems = failed.map((server) => `${server.name}: ${server.error ?? server.status}`).join("; ");
  return (
    `toolsift mcp serve: ${ready.length} of ${servers.length} upstream MCP servers ready (${tools} tools), ` +
    `${pluginTools} plugin tools${failed.length > 0 ? `; not ready: ${problems}` : ""}`
  );
}

function routeConsoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => {
    console.log = saved.log;
    console.info = saved.info;
    console.debug = saved.debug;
  };
}
