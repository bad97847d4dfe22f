import { DEFAULT_MOCK_CLI_PORT, startMockOpenAI } from "../mock-openai/index.js";
import type { MockOpenAICommandOptions } from "./mock-openai-command.js";
import type { CliIo } from "./types.js";

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

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
