import { mcpServeProfile, type RunEnvironment } from "../../runtime/environment/index.js";
import { checkBindAuth } from "../../runtime/http-guard/index.js";
import type { McpToolSource } from "../../runtime/mcp-client/index.js";
import { escapeControlCharacters } from "../../shared/text/index.js";
import {
  createMcpFrontend,
  type HttpMcpServer,
  type McpFrontend,
  type StdioMcpServer,
  serveMcpHttp,
  serveMcpStdio,
} from "../mcp-server/index.js";
import { type FrontDoorTelemetry, startFrontDoorTelemetry } from "../serve-lifecycle/index.js";
import { loadRunEnvironment } from "./assemble-runtime.js";
import { DEFAULT_MCP_HTTP_HOST, type McpCommandDeps } from "./mcp-command.js";
import { configSecrets } from "./redacting-log.js";
import { waitForSignal } from "./server-options.js";
import type { CliIo } from "./types.js";

/** The options of `toolsift mcp serve`, as commander parsed them. */
export type ServeOptions = { config?: string; http?: number; bind?: string };

/**
 * What `toolsift mcp serve` does: builds the run environment (no runner: MCP clients bring their own model),
 * serves it under the `mcp` run profile over MCP (stdio, or Streamable HTTP with
 * `--http`) until the client leaves or a signal arrives, then closes everything it opened.
 */
export async function runServe(io: CliIo, deps: McpCommandDeps, options: ServeOptions): Promise<void> {
  // One line per entry, whatever a client, model or tool put in it.
  const log = (line: string) => io.stderr(`${escapeControlCharacters(line)}\n`);
  const stdio = options.http === undefined;
  // In stdio mode stdout is the protocol: whatever a plugin prints with console.log goes to stderr.
  const restoreConsole = stdio ? routeConsoleToStderr() : () => {};
  const shutdown = (deps.waitForShutdown ?? waitForSignal)();
  let environment: RunEnvironment | undefined;
  let frontend: McpFrontend | undefined;
  let served: StdioMcpServer | HttpMcpServer | undefined;
  let telemetry: FrontDoorTelemetry | undefined;
  try {
    const opened = await loadRunEnvironment({
      ...(options.config ? { configPath: options.config } : {}),
      log,
    });
    environment = opened.environment;
    const { config } = environment;
    const host = options.bind ?? DEFAULT_MCP_HTTP_HOST;
    const token = config.gateway?.auth?.token;
    const keys = config.gateway?.auth?.keys ?? [];
    if (!stdio)
      checkBindAuth({
        host,
        ...(token === undefined ? {} : { token }),
        keys,
        configPath: opened.loaded.path,
      });
    // Traces and metrics over OTLP/HTTP when an endpoint is configured; the SDK loads only then.
    telemetry = await startFrontDoorTelemetry({
      ...(config.telemetry ? { config: config.telemetry } : {}),
      log: environment.log,
    });
    await environment.mcp.start();
    log(startSummary(environment.mcp, environment.plugins.tools.length));
    const serveSettings = config.mcp?.serve ?? {};
    frontend = createMcpFrontend({
      source: environment.mcp,
      environment,
      profile: mcpServeProfile(config),
      ...(serveSettings.maxSessionLogBytes === undefined
        ? {}
        : { maxSessionLogBytes: serveSettings.maxSessionLogBytes }),
      secrets: configSecrets(config),
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
    // Telemetry last: the spans of the last calls are flushed to the collector.
    const close = async () => {
      await served?.close().catch(() => {});
      await frontend?.close().catch(() => {});
      await environment?.mcp.close().catch(() => {});
      environment?.approvals.close();
      await environment?.state.close().catch(() => {});
    };
    await (telemetry === undefined ? close() : telemetry.stopAfter(close));
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
