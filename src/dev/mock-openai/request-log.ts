import { MAX_RECORDED_BYTES, MAX_RECORDED_REQUESTS } from "./limits.js";
import type { RecordedRequest } from "./types.js";

/** The mock's request log: every `/v1` request in arrival order, each with a cursor. */
export type RequestLog = {
  record(request: Omit<RecordedRequest, "cursor" | "at">): RecordedRequest;
  /** Requests with a cursor above `after` (all of them by default), oldest first. */
  after(after?: number): RecordedRequest[];
  /** The cursor of the newest request, 0 before the first. */
  lastCursor(): number;
};

/**
 * An in-memory request log. It keeps at most `MAX_RECORDED_REQUESTS` requests and `MAX_RECORDED_BYTES` of
 * bodies, dropping the oldest first, so a long-running demo cannot exhaust memory; cursors keep counting.
 */
export function createRequestLog(): RequestLog {
  const entries: RecordedRequest[] = [];
  let cursor = 0;
  let keptBytes = 0;
  return {
    record(request) {
      cursor += 1;
      const entry: RecordedRequest = { cursor, ...request, at: new Date().toISOString() };
      entries.push(entry);
      keptBytes += entry.bytes;
      while (
        entries.length > MAX_RECORDED_REQUESTS ||
        (keptBytes > MAX_RECORDED_BYTES && entries.length > 1)
      ) {
        keptBytes -= entries.shift()?.bytes ?? 0;
      }
      return entry;
    },
    after(after = 0) {
      return entries.filter((entry) => entry.cursor > after).map((entry) => ({ ...entry }));
    },
    lastCursor() {
      return cursor;
    },
  };
}
