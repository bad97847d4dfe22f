import type { ConversationItem } from "../providers/index.js";
import type { SessionEvent } from "./types.js";

/** A session's status as its last run left it: `running` while that run has no summary yet. */
export const SESSION_STATUSES = ["running", "completed", "requires_action", "failed", "incomplete"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** What a search by content asks of a session's log; every given part must hold. */
export type SessionContentQuery = {
  /** The last run's status (`sessionStatus`). */
  status?: SessionStatus;
  /** Text the user's input or the model's output contains, compared case-insensitively. */
  text?: string;
};

/**
 * The status of the session's last run: its summary's status, or `running` when its last user input has no
 * summary after it (a run in progress, or one whose process stopped before it could write one); undefined
 * for a session with no run.
 */
export function sessionStatus(events: readonly SessionEvent[]): SessionStatus | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type === "run-summary") return event.status;
    if (event?.type === "user-input") return "running";
  }
  return undefined;
}

/** True when the session's log answers every part of `query`. */
export function sessionContentMatches(events: readonly SessionEvent[], query: SessionContentQuery): boolean {
  if (query.status !== undefined && sessionStatus(events) !== query.status) return false;
  if (query.text !== undefined && query.text !== "") {
    const wanted = query.text.toLowerCase();
    return events.some(
      (event) =>
        (event.type === "user-input" || event.type === "assistant-output") &&
        Array.isArray(event.items) &&
        event.items.some((item) => itemText(item).toLowerCase().includes(wanted)),
    );
  }
  return true;
}

/** The words of a conversation item a search looks in: messages, call arguments, client tool outputs. */
function itemText(item: ConversationItem): string {
  if (item.type === "message") return typeof item.text === "string" ? item.text : "";
  if (item.type === "function_call") return `${item.name} ${item.arguments}`;
  if (item.type === "function_call_output") return typeof item.output === "string" ? item.output : "";
  return "";
}
