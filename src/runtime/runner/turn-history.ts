import type { ConversationItem } from "../providers/index.js";
import { describeHistoryTrim, type FittedHistory, fitHistory } from "./fit-history.js";

/** Options of turnHistory. */
export type TurnHistoryOptions = {
  /** The run's conversation, read afresh at each request (the loop adds to it). */
  conversation: readonly ConversationItem[];
  /** Where the current turn starts in it: nothing from there on is trimmed. */
  turnStart: number;
  /** What the conversation may take of the model's context window (see historyBudgetTokens). */
  budgetTokens: number;
  /** Told once, the first time the history is trimmed. */
  note(line: string): void;
};

/**
 * The history a run sends with each provider request: its conversation fitted to the model's context window
 * (the system prompt and tools are never trimmed).
 */
export function turnHistory(options: TurnHistoryOptions): () => FittedHistory {
  let trimNoted = false;
  return () => {
    const history = fitHistory(options.conversation, {
      budgetTokens: options.budgetTokens,
      keepFrom: options.turnStart,
    });
    if (history.trimmed !== undefined && !trimNoted) {
      trimNoted = true;
      options.note(describeHistoryTrim(history.trimmed, options.budgetTokens));
    }
    return history;
  };
}
