import { Command } from "commander";
import { EXIT_FAILURE, EXIT_SUCCESS } from "./exit-codes.js";
import { GATEWAY_STOP_DEADLINE_MS } from "./limits.js";
import { parseBind, parsePort, waitForSignal } from "./server-options.js";
import type { CliIo } from "./types.js";

/** Where `toolsift gateway` listens and which config it loads; unset fields come from the config. */
export type GatewayStartOptions = { port?: number; bind?: string; configPath?: string };

/** A started gateway as the command sees it. */
export type RunningGateway = {
  url: string;
  /** Drains in-flight runs (bounded), closes the server and flushes the logs. */
  stop(): Promise<void>;
};

/** What `toolsift gateway` needs from the program: how to start a gateway (config, runner, plugins). */
export type GatewayCommandDeps = {
  start(options: GatewayStartOptions): Promise<RunningGateway>;
  /**
   * Resolves with a signal name when the gateway should stop. Default: the first SIGTERM or SIGINT the
   * process receives (listening starts before `start`, so an early signal is not lost).
   */
  waitForShutdown?: () => { signal: Promise<string>; dispose(): void };
  /**
   * Ends the process with an exit code once the gateway stopped, or at the stop deadline, so a handle a tool
   * left open (a timer, a socket) cannot keep it alive. Default: none (the command returns; in-process use).
   */
  exit?: (code: number) => void;
  /** How long a stop may take before the process exits anyway. Default 40 s (`GATEWAY_STOP_DEADLINE_MS`). */
  stopDeadlineMs?: number;
};

const GATEWAY_HELP = `
The gateway serves POST /v1/responses and /v1/chat/completions (OpenAI-compatible) and POST /v1/messages
(Anthropic-compatible), plus GET /v1/models, /v1/responses/:id, /v1/tools/effective, /v1/sessions,
/v1/sessions/:key, /v1/approvals (POST /v1/approvals/:id decides one) and /healthz.

Examples:
  toolsift gateway                       listen on 127.0.0.1:18789 (or gateway.port / gateway.bind)
  toolsift gateway --port 0              pick a free port and print the address
  toolsift gateway --config ./toolsift.json5

SIGTERM or Ctrl-C drains in-flight runs (at most 30 s), flushes the logs and exits 0, even when a tool still
holds a timer or socket; a stop that takes longer than 40 s exits 1. A second signal exits at once.
Exit codes: 0 stopped cleanly, 1 could not start (bad config, port in use), 2 usage error.`;

/** The `gateway` command: starts the agent gateway, prints its address, and stops it gracefully on a signal. */
export function createGatewayCommand(io: CliIo, deps: GatewayCommandDeps): Command {
  return new Command("gateway")
    .description("run the agent gateway: an OpenAI-compatible HTTP API with Tool Search on")
    .option("--port <n>", "TCP port (0 picks a free one; default gateway.port or 18789)", parsePort)
    .option("--bind <addr>", "address to listen on (default gateway.bind or 127.0.0.1)", parseBind)
    .option("--config <file>", "config file (JSON5)")
    .addHelpText("after", GATEWAY_HELP)
    .action(async (options: GatewayCommandOptions) => {
      const shutdown = (deps.waitForShutdown ?? waitForSignal)();
      let running: RunningGateway;
      try {
        running = await deps.start(toStartOptions(options));
      } catch (error) {
        shutdown.dispose();
        throw error;
      }
      io.stdout(`toolsift gateway listening on ${running.url}\n`);
      const signal = await shutdown.signal;
      shutdown.dispose();
      io.stderr(`toolsift gateway: ${signal} received, draining in-flight runs...\n`);
      const deadlineMs = deps.stopDeadlineMs ?? GATEWAY_STOP_DEADLINE_MS;
      const deadline = setTimeout(() => {
        io.stderr(`toolsift gateway: the stop did not finish within ${deadlineMs} ms; exiting\n`);
        deps.exit?.(EXIT_FAILURE);
      }, deadlineMs);
      // Only the real entry point exits: without `exit`, the timer must not hold an in-process caller.
      if (deps.exit === undefined) deadline.unref();
      try {
        await running.stop();
      } finally {
        clearTimeout(deadline);
      }
      io.stderr("toolsift gateway stopped\n");
      // Drained and flushed: nothing a tool left open (an interval, a socket) may keep the process alive.
      deps.exit?.(EXIT_SUCCESS);
    });
}

type GatewayCommandOptions = { port?: number; bind?: string; config?: string };

function toStartOptions(options: GatewayCommandOptions): GatewayStartOptions {
  const start: GatewayStartOptions = {};
  if (options.port !== undefined) start.port = options.port;
  if (options.bind !== undefined) start.bind = options.bind;
  if (options.config !== undefined) start.configPath = options.config;
  return start;
}
