import type { Readable, Writable } from "node:stream";
import { Command } from "commander";
import { resolveToolSearchConfig } from "../config/index.js";
import { ToolsiftError } from "../errors/index.js";
import { isLoopbackHost } from "../gateway/index.js";
import type { McpToolSource } from "../mcp-client/index.js";
import {
  createMcpFrontend,
  type HttpMcpServer,
  MCP_AGENT_ID,
  type McpFrontend,
  type StdioMcpServer,
  serveMcpHttp,
  serveMcpStdio,
} from "../mcp-server/index.js";
import { policyLayersFor } from "../policy/index.js";
import { type AssembledRuntime, assembleRuntime } from "./assemble-runtime.js";
import { parseBind, parsePort, waitForSignal } from "./server-options.js";
import type { CliIo } from "./types.js";

/** Default address of `mcp serve --http`. */
const DEFAULT_MCP_HTTP_HOST = "127.0.0.1";

/** What `toolsift mcp` needs from the program; every field has a real default. */
export type McpCommandDeps = {
  /** The protocol streams of stdio mode. Default: the process's stdin and stdout. */
  stdin?: Readable;
  stdout?: Writable;
  /** Resolves with a signal name when the server should stop. Default: the first SIGTERM or SIGINT. */
  waitForShutdown?: () => { signal: Promise<string>; dispose(): void };
};

const SERVE_HELP = `
toolsift speaks MCP in front of the configured upstream MCP servers (mcp.servers) and plugins. Clients see
tool_search, tool_describe and tool_call (plus the visible and direct-only tools) instead of every upstream
tool; the server instructions carry the directory. Every call goes through the executor pipeline and is
logged as a session of agent "mcp" under the state directory.

Examples:
  toolsift mcp serve --config ./toolsift.json           MCP over stdio (for desktop clients and IDEs)
  toolsift mcp serve --http 0                           Streamable HTTP on 127.0.0.1, a free port (URL on stderr)
  toolsift mcp serve --http 8931 --bind 0.0.0.0         needs gateway.auth.token: clients send it as a bearer token

In stdio mode stdout carries only the protocol; logs go to stderr. Set tools.toolSearch to false to list
every tool directly (MCP tools as <server>__<tool>).
Exit codes: 0 stopped cleanly, 1 could not start (bad config, port in use), 2 usage error.`;

/** The `mcp` command: `mcp serve` runs toolsift as an MCP server (stdio, or Streamable HTTP with --http). */
export function createMcpCommand(io: CliIo, deps: McpCommandDeps = {}): Command {
  const serve = new Command("serve")
    .description("serve Tool Search over MCP in front of the configured MCP servers and plugins")
    .option("--config <file>", "config file (JSON5)")
    .option(
      "--http <port>",
      "serve Streamable HTTP on this port instead of stdio (0 picks a free one)",
      parsePort,
    )
    .option("--bind <addr>", `address for --http (default ${DEFAULT_MCP_HTTP_HOST})`, parseBind)
    .addHelpText("after", SERVE_HELP)
    .action(async (options: ServeOptions, command: Command) => {
      if (options.bind !== undefined && options.http === undefined)
        command.error("error: --bind only applies with --http <port>", { exitCode: 2 });
      await runServe(io, deps, options);
    });
  return new Command("mcp").description("toolsift and the Model Context Protocol").addCommand(serve);
}

type ServeOptions = { config?: string; http?: number; bind?: string };

async function runServe(io: CliIo, deps: McpCommandDeps, options: ServeOptions): Promise<void> {
  const log = (line: string) => io.stderr(`${line}\n`);
  const stdio = options.http === undefined;
  // In stdio mode stdout is the protocol: whatever a plugin prints with console.log goes to stderr.
  const restoreConsole = stdio ? routeConsoleToStderr() : () => {};
  const shutdown = (deps.waitForShutdown ?? waitForSignal)();
  let runtime: AssembledRuntime | undefined;
  let frontend: McpFrontend | undefined;
  let served: StdioMcpServer | HttpMcpServer | undefined;
  try {
    runtime = await assembleRuntime({ ...(options.config ? { configPath: options.config } : {}), log });
    const { config } = runtime.loaded;
    resolveToolSearchConfig(config.tools?.toolSearch, { harness: "embedded" }); // refuses a bad value now
    const host = options.bind ?? DEFAULT_MCP_HTTP_HOST;
    const token = config.gateway?.auth?.token;
    if (!stdio && !isLoopbackHost(host) && token === undefined) {
      throw new ToolsiftError(
        "CONFIG_INVALID",
        `Refusing to serve MCP on ${host} without an auth token: set gateway.auth.token in ${runtime.loaded.path} ` +
          '(for example "env:TOOLSIFT_GATEWAY_TOKEN"), or bind to 127.0.0.1.',
      );
    }
    await runtime.mcp.start();
    log(startSummary(runtime.mcp, runtime.plugins.tools.length));
    // The global policy, narrowed by an `agents.list` entry with id "mcp" when there is one.
    const agent = config.agents?.list?.find((entry) => entry.id === MCP_AGENT_ID) ?? { id: MCP_AGENT_ID };
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
        ...(config.gateway?.cors?.allowOrigins === undefined
          ? {}
          : { allowOrigins: config.gateway.cors.allowOrigins }),
        ...(config.gateway?.allowedHosts === undefined ? {} : { allowedHosts: config.gateway.allowedHosts }),
      });
      served = httpServer;
      log(`toolsift mcp serve listening on ${httpServer.url}`);
      if (token !== undefined)
        log("toolsift mcp serve: every request needs the bearer token (gateway.auth.token)");
      await shutdown.signal;
    }
  } finally {
    shutdown.dispose();
    await served?.close().catch(() => {});
    await frontend?.close().catch(() => {});
    await runtime?.close().catch(() => {});
    runtime?.approvals.close();
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
