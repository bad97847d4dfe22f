import type { Readable, Writable } from "node:stream";
import { Command } from "commander";
import type { ServeOptions } from "./mcp-action.js";
import { parseBind, parsePort } from "./server-options.js";
import type { CliIo } from "./types.js";

/** Default address of `mcp serve --http`. */
export const DEFAULT_MCP_HTTP_HOST = "127.0.0.1";

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
every tool directly (MCP tools as <server>__<tool>). Limits are config keys: mcp.serve.maxSessions (HTTP
sessions kept; the least recently used idle one makes room), mcp.serve.sessionIdleMs and
mcp.serve.maxSessionLogBytes. While the state directory cannot be written, calls are refused before they run.
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
      const { runServe } = await import("./mcp-action.js");
      await runServe(io, deps, options);
    });
  return new Command("mcp").description("toolsift and the Model Context Protocol").addCommand(serve);
}
