import type { ConversationItem } from "../providers/index.js";
import type { SessionEvent } from "./types.js";

function isString(value: unknown): value is string {
  return typeof value === "string";
}

/** A fresh, well-formed copy of a logged conversation item, or undefined for anything malformed. */
function conversationItem(value: unknown): ConversationItem | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const item = value as Record<string, unknown>;
  if (item.type === "message" && (item.role === "user" || item.role === "assistant") && isString(item.text)) {
    return { type: "message", role: item.role, text: item.text };
  }
  if (
    item.type === "function_call" &&
    isString(item.callId) &&
    isString(item.name) &&
    isString(item.arguments)
  ) {
    return { type: "function_call", callId: item.callId, name: item.name, arguments: item.arguments };
  }
  if (item.type === "function_call_output" && isString(item.callId) && isString(item.output)) {
    return outputItem(item.callId, item.output, item.isError === true);
  }
  return undefined;
}

/** A function call's output; `isError` only when the tool reported failure (providers that can say so do). */
function outputItem(callId: string, output: string, isError: boolean): ConversationItem {
  return { type: "function_call_output", callId, output, ...(isError ? { isError: true as const } : {}) };
}

/** The conversation items an event contributes to a replay (none for display-only and summary events). */
function itemsOf(event: SessionEvent): ConversationItem[] {
  if (event.type === "user-input" || event.type === "assistant-output") {
    const items: unknown = event.items;
    if (!Array.isArray(items)) return [];
    return items.map(conversationItem).filter((item): item is ConversationItem => item !== undefined);
  }
  if (event.type === "tool-result" && isString(event.callId) && isString(event.output)) {
    return [outputItem(event.callId, event.output, event.isError === true)];
  }
  return [];
}

/**
 * Rebuilds the provider conversation from a session's events, oldest first: the items of `user-input`
 * and `assistant-output` events, and each `tool-result` as a `function_call_output` with its call id.
 * `session`, `model-request`, `target-activity` (display-only evidence) and `run-summary` events are never
 * replayed. Malformed items are dropped, and so are pairs a provider would reject: an output whose call
 * was not made earlier, a repeated output for one call, and a call that never got an output although a
 * user message came after it (a crashed or abandoned turn). A trailing unanswered call is kept: the next
 * request may answer it.
 */
export function replayConversation(events: readonly SessionEvent[]): ConversationItem[] {
  const items = events.flatMap(itemsOf);
  const answered = new Set<string>();
  const called = new Set<string>();
  const kept: ConversationItem[] = [];
  for (const item of items) {
    if (item.type === "function_call") {
      called.add(item.callId);
      kept.push(item);
    } else if (item.type === "function_call_output") {
      if (called.has(item.callId) && !answered.has(item.callId)) {
        answered.add(item.callId);
        kept.push(item);
      }
    } else {
      kept.push(item);
    }
  }
  let lastUserMessage = -1;
  kept.forEach((item, index) => {
    if (item.type === "message" && item.role === "user") lastUserMessage = index;
  });
  return kept.filter(
    (item, index) => item.type !== "function_call" || answered.has(item.callId) || index > lastUserMessage,
  );
}
