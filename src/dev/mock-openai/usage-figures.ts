import type { ConversationItem } from "../../runtime/providers/index.js";
import type { NamespacedName } from "./tool-names.js";

/** Characters counted as one token in the mock's usage figures. */
export const CHARS_PER_TOKEN = 4;

/** What an answer needs besides the planned items. */
export type AnswerContext = {
  cursor: number;
  model: string;
  requestBytes: number;
  /** Functions of the request's `namespace` tools by joined name, so calls name their namespace again. */
  namespaces?: ReadonlyMap<string, NamespacedName>;
};

/**
 * The mock's token usage: the request's bytes and the answer's characters, one token per
 * `CHARS_PER_TOKEN`, rounded up. Deterministic, so tests can check the provider reports it.
 */
export function usageFigures(
  plan: readonly ConversationItem[],
  requestBytes: number,
): { inputTokens: number; outputTokens: number } {
  let outputChars = 0;
  for (const item of plan) {
    if (item.type === "message") outputChars += item.text.length;
    else if (item.type === "function_call") outputChars += item.name.length + item.arguments.length;
  }
  return {
    inputTokens: Math.ceil(requestBytes / CHARS_PER_TOKEN),
    outputTokens: Math.ceil(outputChars / CHARS_PER_TOKEN),
  };
}

/** Function calls of a plan with ids unique in the mock's life (`call_<cursor>_<n>`), so turns never clash. */
export function withUniqueCallIds(plan: readonly ConversationItem[], cursor: number): ConversationItem[] {
  let count = 0;
  return plan.map((item) => {
    if (item.type !== "function_call") return item;
    count += 1;
    return { ...item, callId: `call_${cursor}_${count}` };
  });
}
