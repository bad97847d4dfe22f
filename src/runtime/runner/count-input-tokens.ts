import type { ResolvedAgent } from "../config/index.js";
import { type ClientHandoff, clientToolDefinitions } from "./client-tools.js";
import { estimateRequestTokens } from "./fit-history.js";
import { prepareRun } from "./prepare-run.js";
import type { RunnerOptions } from "./runner-options.js";
import type { InputTokenCountRequest } from "./types.js";

/** The session key the counting surface is opened under (no session is read or written). */
const COUNT_SESSION_KEY = "count-tokens";

/**
 * Estimated input tokens of the first model request a run of `agent` would send for this conversation:
 * the surface is prepared as a run prepares it (same tools, policy, Tool Search or Code Mode, the client's
 * tools admitted), without the plugins' hooks, and closed again; the system prompt with the directory,
 * the declared tools and the items are counted by `estimateRequestTokens`, the history budget's estimate.
 */
export async function countInputTokens(
  options: RunnerOptions,
  agent: ResolvedAgent,
  request: InputTokenCountRequest,
): Promise<number> {
  const handoffs = new Map<string, ClientHandoff>();
  const prepared = await prepareRun(
    options,
    agent,
    {
      agentId: agent.id,
      sessionKey: COUNT_SESSION_KEY,
      input: request.input,
      ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
    },
    clientToolDefinitions(request.clientTools ?? [], handoffs),
    { onTargetActivity: () => {}, withoutHooks: true },
  );
  try {
    return estimateRequestTokens({
      systemPrompt: prepared.systemPrompt,
      tools: prepared.providerTools,
      items: request.input,
    });
  } finally {
    prepared.surface.close();
  }
}
