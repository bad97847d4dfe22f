import { DEFAULT_MOCK_CLI_PORT, startMockOpenAI } from "../../dev/mock-openai/index.js";
import type { MockOpenAICommandOptions } from "./mock-openai-command.js";
import { waitForSignal } from "./server-options.js";
import type { CliIo } from "./types.js";

/**
 * What `toolsift mock-openai` does: starts the mock provider, prints `Mock OpenAI provider listening on
 * <baseUrl>`, and resolves only when `until` does (default: SIGINT or SIGTERM), after closing the server.
 */
export async function serveMockOpenAI(
  options: MockOpenAICommandOptions & { port?: number; host?: string },
  io: CliIo,
): Promise<void> {
  const mock = await startMockOpenAI({
    port: options.port ?? DEFAULT_MOCK_CLI_PORT,
    ...(options.host === undefined ? {} : { host: options.host }),
  });
  io.stdout(`Mock OpenAI provider listening on ${mock.baseUrl}\n`);
  try {
    await (options.until ?? untilStopSignal)();
  } finally {
    await mock.close();
  }
}

/** Resolves on the first SIGINT or SIGTERM, or when the parent (npx, npm) exited without passing one on. */
async function untilStopSignal(): Promise<string> {
  const shutdown = waitForSignal();
  const signal = await shutdown.signal;
  shutdown.dispose();
  return signal;
}
