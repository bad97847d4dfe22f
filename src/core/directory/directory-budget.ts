import { DEFAULT_DIRECTORY_BUDGET, MIN_DIRECTORY_BUDGET } from "./limits.js";

/** Context-window tokens per directory character: a window of N tokens gives floor(N / 10) characters. */
const TOKENS_PER_DIRECTORY_CHAR = 10;

/**
 * The directory budget in characters: 18,000, or min(18000, max(768, floor(tokens / 10))) when the context
 * window is known. A window that is not a positive number counts as unknown.
 */
export function directoryBudget(contextWindowTokens?: number): number {
  if (
    typeof contextWindowTokens !== "number" ||
    Number.isNaN(contextWindowTokens) ||
    contextWindowTokens <= 0
  ) {
    return DEFAULT_DIRECTORY_BUDGET;
  }
  const scaled = Math.floor(contextWindowTokens / TOKENS_PER_DIRECTORY_CHAR);
  return Math.min(DEFAULT_DIRECTORY_BUDGET, Math.max(MIN_DIRECTORY_BUDGET, scaled));
}
