import { Command, InvalidArgumentError } from "commander";
import type { CliIo } from "./types.js";

/**
 * Default port of `toolsift mock-openai`, as its help shows it: mock-openai's DEFAULT_MOCK_CLI_PORT, repeated
 * so that declaring the command loads no server code (limits.test.ts keeps the two equal).
 */
export const MOCK_OPENAI_DEFAULT_PORT = 18_790;

const EXAMPLES = `
The mock answers POST /v1/responses and POST /v1/chat/completions with a deterministic scripted model:
a prompt with "target=<tool> [and=<tool2>]" makes it call the tool (directly when declared, otherwise
through tool_search and tool_call), then answer with the tool's output. GET /debug/requests?after=<cursor>
returns every request body it received, raw.

Examples:
  toolsift mock-openai                 # listens on http://127.0.0.1:${MOCK_OPENAI_DEFAULT_PORT}/v1
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
      `port to listen on; 0 picks a free port (default ${MOCK_OPENAI_DEFAULT_PORT})`,
      parsePort,
    )
    .option("--host <address>", "address to bind (default 127.0.0.1)")
    .addHelpText("after", EXAMPLES)
    .action(async (flags: { port?: number; host?: string }) => {
      const { serveMockOpenAI } = await import("./mock-openai-action.js");
      await serveMockOpenAI({ ...flags, ...options }, io);
    });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d{1,5}$/u.test(value.trim()) || port > 65_535)
    throw new InvalidArgumentError("port must be a whole number from 0 to 65535.");
  return port;
}
