import { CONTENT_READ_BATCH, MAX_CONTENT_SCAN_BYTES, MAX_CONTENT_SCAN_SESSIONS } from "./limits.js";
import type { ListedSession, SessionPage } from "./page-sessions.js";
import { type SessionContentQuery, sessionContentMatches } from "./session-content.js";
import type { SessionEvent } from "./types.js";

/**
 * The page of `candidates` (in page order, already past the cursor and accepted by the page's filter) whose
 * logs answer `content`: read in batches of `CONTENT_READ_BATCH` with `readLogs` (one answer per session, in
 * order) until `limit` match. Bounded: at most `MAX_CONTENT_SCAN_SESSIONS` sessions and
 * `MAX_CONTENT_SCAN_BYTES` of logs (by their listed size; at least one session) are read per page; when the
 * bound stops it first, the page says `hasMore` and `scannedTo` (the last session read, the next cursor).
 */
export async function pageByContent(
  candidates: readonly ListedSession[],
  limit: number,
  content: SessionContentQuery,
  readLogs: (sessions: readonly ListedSession[]) => Promise<SessionEvent[][]>,
): Promise<SessionPage> {
  let budget = 0;
  let bytes = 0;
  while (
    budget < candidates.length &&
    budget < MAX_CONTENT_SCAN_SESSIONS &&
    (budget === 0 || bytes + (candidates[budget]?.bytes ?? 0) <= MAX_CONTENT_SCAN_BYTES)
  ) {
    bytes += candidates[budget]?.bytes ?? 0;
    budget += 1;
  }
  const data: ListedSession[] = [];
  for (let start = 0; start < budget; start += CONTENT_READ_BATCH) {
    const batch = candidates.slice(start, Math.min(start + CONTENT_READ_BATCH, budget));
    const logs = await readLogs(batch);
    for (const [index, session] of batch.entries()) {
      if (data.length === limit) return { data, hasMore: true };
      if (sessionContentMatches(logs[index] ?? [], content)) data.push(session);
    }
  }
  if (budget < candidates.length) {
    // A full page after the last read session: its cursor is that session (the next page goes on from it).
    if (data.length === limit) return { data, hasMore: true };
    const last = candidates[budget - 1];
    return { data, hasMore: true, ...(last === undefined ? {} : { scannedTo: last.id }) };
  }
  return { data, hasMore: false };
}
