import type { ProviderUsage } from "../providers/index.js";

/** A run's usage before its first response: no tokens. */
export function emptyUsage(): ProviderUsage {
  return { inputTokens: 0, outputTokens: 0 };
}

/** Adds one response's usage to the run's: token counts, and the cache counts once any response has them. */
export function addUsage(total: ProviderUsage, usage: ProviderUsage | undefined): void {
  total.inputTokens += usage?.inputTokens ?? 0;
  total.outputTokens += usage?.outputTokens ?? 0;
  if (usage?.cacheReadInputTokens !== undefined)
    total.cacheReadInputTokens = (total.cacheReadInputTokens ?? 0) + usage.cacheReadInputTokens;
  if (usage?.cacheCreationInputTokens !== undefined)
    total.cacheCreationInputTokens = (total.cacheCreationInputTokens ?? 0) + usage.cacheCreationInputTokens;
}
