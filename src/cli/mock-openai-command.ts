import { Command, InvalidArgumentError } from "commander";
import { DEFAULT_MOCK_CLI_PORT, startMockOpenAI } from "../mock-openai/index.js";
import type { CliIo } from "./types.js";

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

const EXAMPLES = `
The mock answers POST /v1/responses and POST /v1/chat/completions with a deterministic scripted model:
a prompt with "target=<tool> [and=<tool2>]" makes it call the tool (directly when declared, otherwise
through tool_search and tool_call), then answer with the tool's output. GET /debug/requests?after=<cursor>
returns every request body it received, raw.

Examples:
  toolsift mock-openai                 # listens on http://127.0.0.1:${DEFAULT_MOCK_CLI_PORT}/v1
  toolsift mock-openai --port 0        # a free port; the address is printed
Stop it with Ctrl-C (SIGINT) or SIGTERM.`;

/** Options of the `mock-openai` command, for tests: what ends the command (default SIGINT or SIGTERM). */
export type MockOpenAICommandOptions = { until?: () => Promise<unknown> };

/**
 * The `mock-openai` command: starts the mock OpenAI provider, prints
 * `Mock OpenAI provider listening on <baseUrl>`, and resolves only when stopped (SIGINT or SIGTERM),
 * after closing the server.
 */
export function createMockOpenAICommand(io: CliIo, options: MockOpenAICommandOptions = {}): Command {
  return new Command("mock-openai")
    .description("serve a scripted OpenAI-compatible model for tests and demos (no network, no API key)")
    .option(
      "--port <n>",
      `port to listen on; 0 picks a free port (default ${DEFAULT_MOCK_CLI_PORT})`,
      parsePort,
    )
    .option("--host <address>", "address to bind (default 127.0.0.1)")
    .addHelpText("after", EXAMPLES)
    .action(async (flags: { port?: number; host?: string }) => {
      const mock = await startMockOpenAI({
        port: flags.port ?? DEFAULT_MOCK_CLI_PORT,
        ...(flags.host === undefined ? {} : { host: flags.host }),
      });
      io.stdout(`Mock OpenAI provider listening on ${mock.baseUrl}\n`);
      try {
        await (options.until ?? untilStopSignal)();
      } finally {
        await mock.close();
      }
    });
}

/** Resolves on the first SIGINT or SIGTERM; while waiting, those signals no longer kill the process. */
function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      for (const name of STOP_SIGNALS) process.off(name, stop);
      resolve(signal);
    };
    for (const name of STOP_SIGNALS) process.on(name, stop);
  });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d{1,5}$/u.test(value.trim()) || port > 65_535)
    throw new InvalidArgumentError("port must be a whole number from 0 to 65535.");
  return port;
}
