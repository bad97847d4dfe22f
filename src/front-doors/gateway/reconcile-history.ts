import type { ConversationItem } from "../../runtime/providers/index.js";
import type { SessionEvent } from "../../runtime/sessions/index.js";

/**
 * What a request's items are, measured against its session's log:
 * - `new`: `items` are the turn's new input (the rest the log already holds);
 * - `repeat`: the log already holds every item (a retried request);
 * - `diverged`: the history sent differs from the log's at some point (a client that edited, rewound or
 *   compacted it); `branch` names the sent history through that point, the same text for every later request
 *   of that edited conversation (a branch session's key is made from it).
 */
export type HistoryReconciliation =
  | { kind: "new"; items: ConversationItem[] }
  | { kind: "repeat" }
  | { kind: "diverged"; branch: string };

/**
 * One point both sides agree on: a user message (by its text), a call the client saw (a client tool call
 * handed to it, or a call it sent itself), or a call output the client sent (both by call id). Assistant
 * messages are not anchors: clients merge, split or reword them, and the model's own turns come from the log.
 */
type Anchor =
  | { kind: "user"; text: string }
  | { kind: "call"; callId: string }
  | { kind: "output"; callId: string };

/** The placeholder redaction writes in place of a secret (`src/runtime/sessions`). */
const REDACTED = "[REDACTED]";

/**
 * Matches the items a client sent against its session's log (see DESIGN.md, "One conversation is one
 * session"). The log's anchors are the items of every `user-input` (user messages, call outputs, calls a client
 * sent as history) and the calls each run handed to its client (`run-summary.handoffs`), in order. The sent
 * anchors must begin with exactly those: then what follows the last of them is new (from the first new
 * anchor; a new call takes along the assistant messages just before it that are not the log's own answers),
 * nothing following is a repeat, and a
 * difference or a shorter history is a divergence. An empty log takes every item as new.
 */
export function reconcileHistory(
  items: readonly ConversationItem[],
  events: readonly SessionEvent[],
): HistoryReconciliation {
  const logged = loggedAnchors(events);
  if (logged.length === 0) return { kind: "new", items: [...items] };
  const sent = sentAnchors(items);
  for (const [index, anchor] of logged.entries()) {
    const mine = sent[index];
    if (mine === undefined || !sameAnchor(anchor, mine.anchor)) {
      const through = sent.slice(0, index + 1).map((entry) => entry.anchor);
      return { kind: "diverged", branch: JSON.stringify(mine === undefined ? [...through, "end"] : through) };
    }
  }
  const next = sent[logged.length];
  if (next === undefined) return { kind: "repeat" };
  const lastKnown = sent[logged.length - 1]?.index ?? -1;
  let start = next.index;
  if (next.anchor.kind === "call") {
    const answers = loggedAnswerTexts(events);
    while (start - 1 > lastKnown && isNewAssistantMessage(items[start - 1], answers)) start -= 1;
  }
  return { kind: "new", items: items.slice(start) };
}

/**
 * The rule for a session named explicitly whose client sent history the log does not match: everything
 * up to and including the last assistant message or function call is dropped. A request without them is new.
 */
export function afterLastAssistantItem(items: readonly ConversationItem[]): ConversationItem[] {
  let lastAssistant = -1;
  items.forEach((item, index) => {
    if (item.type === "function_call" || isAssistantMessage(item)) lastAssistant = index;
  });
  return items.slice(lastAssistant + 1);
}

/** Whether a request carries any of the model's side of a conversation (it resends history). */
export function carriesHistory(items: readonly ConversationItem[]): boolean {
  return items.some((item) => item.type === "function_call" || isAssistantMessage(item));
}

/** The texts of the model's messages in the log (what a client resends as its assistant messages). */
function loggedAnswerTexts(events: readonly SessionEvent[]): Set<string> {
  const texts = new Set<string>();
  for (const event of events)
    if (event.type === "assistant-output" && Array.isArray(event.items))
      for (const item of event.items)
        if (isLoggedItem(item) && item.type === "message" && item.role === "assistant") texts.add(item.text);
  return texts;
}

function isNewAssistantMessage(item: ConversationItem | undefined, answers: ReadonlySet<string>): boolean {
  return item?.type === "message" && item.role === "assistant" && !answers.has(item.text);
}

function isAssistantMessage(item: ConversationItem | undefined): boolean {
  return item?.type === "message" && item.role === "assistant";
}

function anchorOf(item: ConversationItem): Anchor | undefined {
  if (item.type === "message") return item.role === "user" ? { kind: "user", text: item.text } : undefined;
  if (item.type === "function_call") return { kind: "call", callId: item.callId };
  return { kind: "output", callId: item.callId };
}

function sentAnchors(items: readonly ConversationItem[]): Array<{ anchor: Anchor; index: number }> {
  return items.flatMap((item, index) => {
    const anchor = anchorOf(item);
    return anchor === undefined ? [] : [{ anchor, index }];
  });
}

/** The anchors of a log, oldest first; malformed items (a log is read, not trusted) are skipped. */
function loggedAnchors(events: readonly SessionEvent[]): Anchor[] {
  const anchors: Anchor[] = [];
  for (const event of events) {
    if (event.type === "user-input" && Array.isArray(event.items)) {
      for (const item of event.items) {
        const anchor = isLoggedItem(item) ? anchorOf(item) : undefined;
        if (anchor !== undefined) anchors.push(anchor);
      }
    } else if (event.type === "run-summary" && Array.isArray(event.handoffs)) {
      for (const handoff of event.handoffs)
        if (typeof handoff?.callId === "string") anchors.push({ kind: "call", callId: handoff.callId });
    }
  }
  return anchors;
}

function isLoggedItem(item: unknown): item is ConversationItem {
  if (typeof item !== "object" || item === null) return false;
  const record = item as Record<string, unknown>;
  if (record.type === "message") return typeof record.text === "string" && typeof record.role === "string";
  if (record.type === "function_call" || record.type === "function_call_output")
    return typeof record.callId === "string";
  return false;
}

function sameAnchor(logged: Anchor, sent: Anchor): boolean {
  if (logged.kind === "user") return sent.kind === "user" && sameText(logged.text, sent.text);
  return sent.kind === logged.kind && sent.callId === logged.callId;
}

/**
 * A logged text equals the sent one, or equals it up to what redaction replaced: the log holds user text
 * redacted, so each `[REDACTED]` stands for any run of characters.
 */
function sameText(logged: string, sent: string): boolean {
  if (logged === sent) return true;
  if (!logged.includes(REDACTED)) return false;
  const parts = logged.split(REDACTED);
  const first = parts[0] ?? "";
  const last = parts.at(-1) ?? "";
  if (!sent.startsWith(first) || sent.length < first.length + last.length) return false;
  let position = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = sent.indexOf(part, position);
    if (found < 0) return false;
    position = found + part.length;
  }
  return sent.endsWith(last) && sent.length - last.length >= position;
}
