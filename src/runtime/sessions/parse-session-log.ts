import type { SessionEvent } from "./types.js";

/** Every event type a session log line may carry. */
export const SESSION_EVENT_TYPES: ReadonlySet<SessionEvent["type"]> = new Set([
  "session",
  "user-input",
  "model-request",
  "assistant-output",
  "tool-result",
  "target-activity",
  "approval",
  "run-summary",
]);

/** A line of a session log that was not returned as an event. */
export interface SkippedSessionLine {
  /** 1-based line number in the file. */
  line: number;
  /** `torn` for an unterminated, unparsable last line (a crash mid-write); otherwise why it was skipped. */
  reason: string;
}

/** What parseSessionLog found. */
export interface ParsedSessionLog {
  events: SessionEvent[];
  skipped: SkippedSessionLine[];
}

function eventOf(line: string): SessionEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "not valid JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string" || !SESSION_EVENT_TYPES.has(type as SessionEvent["type"])) {
    return "no known event type";
  }
  return value as SessionEvent;
}

/**
 * The events of a session log's text, oldest first. Never throws: blank lines are ignored; a last line
 * without its newline that does not parse is a torn write and is skipped as `torn`; any other line that
 * is not a JSON object with a known `type` is skipped and listed in `skipped`.
 */
export function parseSessionLog(text: string): ParsedSessionLog {
  const events: SessionEvent[] = [];
  const skipped: SkippedSessionLine[] = [];
  const lines = text.split("\n");
  const unterminated = !text.endsWith("\n");
  lines.forEach((raw, index) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim().length === 0) return;
    const parsed = eventOf(line);
    if (typeof parsed !== "string") {
      events.push(parsed);
      return;
    }
    const isLast = index === lines.length - 1;
    skipped.push({ line: index + 1, reason: isLast && unterminated ? "torn" : parsed });
  });
  return { events, skipped };
}
