import { randomBytes } from "node:crypto";
import { isToolsiftError, messageOf, ToolsiftError } from "../../shared/errors/index.js";
import {
  assertValidSessionKey,
  createAppendWatchers,
  createStorageFaultReporter,
  type ListedSession,
  MAX_CONTENT_SCAN_SESSIONS,
  pageByContent,
  pageSessions,
  parseSessionListId,
  parseSessionLog,
  type SessionEvent,
  type SessionStat,
  type SessionStore,
  type StorageStatus,
  sessionEventLine,
} from "../sessions/index.js";
import { HEALTH_PROBE_CACHE_MS, MAX_APPEND_BATCH_BYTES, SESSION_PAGE_SCAN_ROWS } from "./limits.js";
import type { PostgresPool } from "./open-postgres-pool.js";
import { NOTIFY_CHANNELS, type PostgresListener } from "./postgres-listener.js";
import { POSTGRES_FIX, redactedUrl } from "./postgres-unavailable.js";
import { createSessionWatch } from "./session-watch.js";

/** Options of createPostgresSessionStore. */
export interface PostgresSessionStoreOptions {
  /**
   * Told once when the database stops taking appends (an append or a probe failed: the line names the
   * database, the reason and the fix), and once when it takes them again. Default: nothing is reported.
   */
  onStorageFault?(line: string): void;
  /**
   * This process's LISTEN connection: appends other processes make (their `toolsift_session_appended`
   * notifications) are told to `onAppended` listeners as this process's own are, and appends notify only
   * while some process has an `onAppended` listener (`createSessionWatch`). Without it only this process's
   * appends are told, and every append notifies.
   */
  listener?: PostgresListener;
  /** How often the store looks whether any process follows sessions live. Default SESSION_WATCH_CHECK_MS. */
  watchCheckMs?: number;
}

/** Upserts the session row for a batch, moving `last_seq` past it; `RETURNING` the new `last_seq`. */
const UPSERT_SESSION = `INSERT INTO toolsift_sessions AS s (agent_id, session_key, bytes, last_seq)
  VALUES ($1, $2, $3, cardinality($4::text[]))
  ON CONFLICT (agent_id, session_key) DO UPDATE
  SET updated_at = date_trunc('milliseconds', clock_timestamp()),
    bytes = s.bytes + EXCLUDED.bytes,
    last_seq = s.last_seq + EXCLUDED.last_seq
  RETURNING s.last_seq`;

/** Inserts the batch's lines numbered after the `last_seq` the session had. */
const INSERT_LINES = `INSERT INTO toolsift_session_events (agent_id, session_key, seq, line)
  SELECT $1, $2, session.last_seq - cardinality($4::text[]) + line.ord, line.text
  FROM session, unnest($4::text[]) WITH ORDINALITY AS line(text, ord)`;

/**
 * One statement per batch of lines of one session: the session row is created or updated (time, bytes, and
 * `last_seq` moved past the batch) and the lines are inserted numbered after the `last_seq` it had. The
 * upsert locks the session row until the statement commits, so appends to one session from several
 * processes take turns and get distinct, consecutive seqs; the statement commits whole or not at all.
 * $1 agent, $2 key, $3 bytes of the batch, $4 the lines (text[], without their newlines).
 */
const APPEND_SQL = `WITH session AS (${UPSERT_SESSION})
${INSERT_LINES}`;

/**
 * APPEND_SQL ending with one NOTIFY on `toolsift_session_appended` (payload $5: `<store tag> <agent>/<key>`),
 * sent when the statement commits, so other processes' live views wake at once however many lines the batch
 * holds. Used while some process follows sessions live (`createSessionWatch`).
 */
const APPEND_NOTIFY_SQL = `WITH session AS (${UPSERT_SESSION}), lines AS (${INSERT_LINES})
SELECT pg_notify('${NOTIFY_CHANNELS.sessionAppended}', $5::text) FROM session`;

/** Random bytes of a store's tag: its own notifications come back to it, and are known by the tag. */
const STORE_TAG_BYTES = 6;

type Pending = { line: string; bytes: number; resolve: () => void; reject: (error: unknown) => void };
type Queue = { pending: Pending[]; drained: Promise<void> };
/** A session's row as lists read it: times as epoch milliseconds (they are kept to the millisecond). */
type SessionRow = {
  agent_id: string;
  session_key: string;
  created_ms: number;
  updated_ms: number;
  bytes: string;
};
/** With the creation time as the database writes it, for a page cursor that compares exactly. */
type PageRow = SessionRow & { created_at: string };

const SESSION_COLUMNS = `agent_id, session_key, bytes, created_at::text AS created_at,
  (extract(epoch FROM created_at) * 1000)::float8 AS created_ms,
  (extract(epoch FROM updated_at) * 1000)::float8 AS updated_ms`;

/**
 * Sessions in page order (newest created first, then agent id and key in byte order: pageSessions' order,
 * since times are kept to the millisecond and keys in collation "C"), read from the index
 * `toolsift_sessions_created`. $1 rows; after a cursor, strictly after that session ($2 created_at, $3
 * agent, $4 key).
 */
const FIRST_ROWS_SQL = `SELECT ${SESSION_COLUMNS} FROM toolsift_sessions
ORDER BY created_at DESC, agent_id, session_key LIMIT $1`;
const ROWS_AFTER_SQL = `SELECT ${SESSION_COLUMNS} FROM toolsift_sessions
WHERE created_at <= $2::timestamptz
  AND (created_at < $2::timestamptz OR (agent_id, session_key) > ($3, $4))
ORDER BY created_at DESC, agent_id, session_key LIMIT $1`;

function statOf(row: SessionRow): SessionStat {
  return {
    agentId: row.agent_id,
    sessionKey: row.session_key,
    createdMs: row.created_ms,
    updatedMs: row.updated_ms,
    bytes: Number(row.bytes),
  };
}

/** The lines at the head of `pending` that go out in one statement: up to MAX_APPEND_BATCH_BYTES, at least one. */
function takeBatch(pending: Pending[]): Pending[] {
  let bytes = 0;
  let count = 0;
  for (const entry of pending) {
    if (count > 0 && bytes + entry.bytes > MAX_APPEND_BATCH_BYTES) break;
    bytes += entry.bytes;
    count += 1;
  }
  return pending.splice(0, count);
}

/**
 * The SessionStore on PostgreSQL (tables `toolsift_sessions` and `toolsift_session_events`), shared by every
 * gateway on the database. Each append redacts and serialises the event at call time (`sessionEventLine`, as
 * the file store), then queues the line behind this process's earlier appends to that session: the first
 * line for an idle session is written once the current turn of the event loop is done, with the lines
 * appended meanwhile, and lines that arrive while a statement runs go out together in the next one, in call
 * order (`APPEND_SQL`: atomic, seqs ordered across processes). `append` resolves once its statement
 * committed. A database fault rejects with STORAGE_UNAVAILABLE and is reported once through
 * `onStorageFault` until an append or probe succeeds again. `read` waits for this process's queued appends
 * of the session, then parses the lines in seq order (a row that does not parse is skipped). With the
 * process's LISTEN connection (`options.listener`), `onAppended` hears other processes' appends too: each
 * batch sends one NOTIFY while some process has an `onAppended` listener (`createSessionWatch`).
 */
export function createPostgresSessionStore(
  db: PostgresPool,
  options: PostgresSessionStoreOptions = {},
): SessionStore {
  const where = redactedUrl(db.url);
  const queues = new Map<string, Queue>();
  const watchers = createAppendWatchers();
  const tag = randomBytes(STORE_TAG_BYTES).toString("hex");
  const watch =
    options.listener === undefined
      ? undefined
      : createSessionWatch(db, options.listener, {
          ...(options.watchCheckMs === undefined ? {} : { checkMs: options.watchCheckMs }),
        });
  let followers = 0;
  let probed: { at: number; status: Promise<StorageStatus> } | undefined;

  const faults = createStorageFaultReporter(
    options.onStorageFault,
    `the state database ${where} takes writes.`,
  );

  /** A fault that is not the database being unavailable (a bad schema, a refused statement): INTERNAL. */
  const failure = (action: string, error: unknown): unknown =>
    isToolsiftError(error)
      ? error
      : new ToolsiftError(
          "INTERNAL",
          `Could not ${action} in the state database ${where}: ${messageOf(error)}. Check that its schema is current (\`toolsift state status\`, \`toolsift state migrate\`).`,
          { cause: error },
        );

  const write = async (agentId: string, sessionKey: string, batch: Pending[]) => {
    const lines = batch.map((entry) => entry.line.slice(0, -1));
    const bytes = batch.reduce((sum, entry) => sum + entry.bytes, 0);
    const action = `appending to session ${agentId}/${sessionKey}`;
    try {
      const values = [agentId, sessionKey, bytes, lines];
      await (watch === undefined || watch.wanted()
        ? db.query(action, APPEND_NOTIFY_SQL, [...values, `${tag} ${agentId}/${sessionKey}`])
        : db.query(action, APPEND_SQL, values));
    } catch (error) {
      throw failure(`append to session ${agentId}/${sessionKey}`, error);
    }
  };

  const drain = async (agentId: string, sessionKey: string, id: string, queue: Queue) => {
    while (queue.pending.length > 0) {
      const batch = takeBatch(queue.pending);
      try {
        await write(agentId, sessionKey, batch);
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    queues.delete(id);
  };

  const enqueue = (agentId: string, sessionKey: string, line: string) =>
    new Promise<void>((resolve, reject) => {
      const id = `${agentId}/${sessionKey}`;
      const entry = { line, bytes: Buffer.byteLength(line, "utf8"), resolve, reject };
      const queued = queues.get(id);
      if (queued) {
        queued.pending.push(entry);
        return;
      }
      const queue: Queue = { pending: [entry], drained: Promise.resolve() };
      queues.set(id, queue);
      // Written once this turn of the event loop is done, so what a run logs between two waits goes out as
      // one statement (as the file store's group commit).
      queue.drained = new Promise<void>((next) => setImmediate(next)).then(() =>
        drain(agentId, sessionKey, id, queue),
      );
    });

  // Appends of other processes: their notification names the session (this store's own are told at once).
  options.listener?.subscribe(NOTIFY_CHANNELS.sessionAppended, (payload) => {
    const space = payload.indexOf(" ");
    if (space === -1 || payload.slice(0, space) === tag) return;
    const session = parseSessionListId(payload.slice(space + 1));
    if (session !== undefined) watchers.tell(session.agentId, session.sessionKey);
  });

  const probe = async (): Promise<StorageStatus> => {
    let status: StorageStatus;
    try {
      const result = await db.query<{ read_only: string }>(
        "probing the state database",
        "SELECT current_setting('transaction_read_only') AS read_only",
      );
      status =
        result.rows[0]?.read_only === "on"
          ? {
              writable: false,
              reason: `the state database ${where} is read-only (a standby, or default_transaction_read_only is on): point state.url at the primary.`,
            }
          : { writable: true };
    } catch (error) {
      status = {
        writable: false,
        reason: isToolsiftError(error)
          ? error.message
          : `The state database ${where} cannot be probed: ${messageOf(error)}. ${POSTGRES_FIX}`,
      };
    }
    if (status.writable) faults.writable();
    else faults.fault(status.reason);
    return status;
  };

  const select = async <Row extends SessionRow>(sql: string, values: unknown[] = []) => {
    try {
      return (await db.query<Row>("listing sessions", sql, values)).rows;
    } catch (error) {
      throw failure("list sessions", error);
    }
  };

  /** The events of several sessions in one query, in the order asked (a row that does not parse is skipped). */
  const readLogs = async (sessions: readonly ListedSession[]): Promise<SessionEvent[][]> => {
    let rows: Array<{ agent_id: string; session_key: string; line: string }>;
    try {
      const result = await db.query<{ agent_id: string; session_key: string; line: string }>(
        "searching sessions",
        `SELECT e.agent_id, e.session_key, e.line FROM toolsift_session_events e
         JOIN unnest($1::text[], $2::text[]) AS s(agent_id, session_key)
           ON e.agent_id = s.agent_id AND e.session_key = s.session_key
         ORDER BY e.agent_id, e.session_key, e.seq`,
        [sessions.map((session) => session.agentId), sessions.map((session) => session.sessionKey)],
      );
      rows = result.rows;
    } catch (error) {
      throw failure("search sessions", error);
    }
    const byId = new Map<string, SessionEvent[]>();
    for (const row of rows) {
      const id = `${row.agent_id}/${row.session_key}`;
      let events = byId.get(id);
      if (events === undefined) {
        events = [];
        byId.set(id, events);
      }
      events.push(...parseSessionLog(`${row.line}\n`).events);
    }
    return sessions.map((session) => byId.get(session.id) ?? []);
  };

  return {
    async append(agentId: string, sessionKey: string, event: SessionEvent) {
      assertValidSessionKey("agent id", agentId);
      assertValidSessionKey("session key", sessionKey);
      const line = sessionEventLine(event);
      try {
        await enqueue(agentId, sessionKey, line);
      } catch (error) {
        if (isToolsiftError(error) && error.code === "STORAGE_UNAVAILABLE") {
          probed = undefined; // the next probe looks again rather than answer from before the failure
          faults.fault(error.message);
        }
        throw error;
      }
      // A probe answered while the database was down is not reused once an append got through.
      if (faults.faulted) probed = undefined;
      faults.writable();
      watchers.tell(agentId, sessionKey);
    },

    // While this process has a listener, it follows sessions live: other processes' appends notify.
    onAppended(listener) {
      const stop = watchers.add(listener);
      followers += 1;
      if (followers === 1) watch?.watching(true);
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        stop();
        followers -= 1;
        if (followers === 0) watch?.watching(false);
      };
    },

    probeWritable() {
      const now = Date.now();
      if (probed === undefined || now - probed.at >= HEALTH_PROBE_CACHE_MS) {
        probed = { at: now, status: probe() };
      }
      return probed.status;
    },

    async read(agentId, sessionKey) {
      assertValidSessionKey("agent id", agentId);
      assertValidSessionKey("session key", sessionKey);
      await queues.get(`${agentId}/${sessionKey}`)?.drained;
      let rows: Array<{ line: string }>;
      try {
        const result = await db.query<{ line: string }>(
          `reading session ${agentId}/${sessionKey}`,
          "SELECT line FROM toolsift_session_events WHERE agent_id = $1 AND session_key = $2 ORDER BY seq",
          [agentId, sessionKey],
        );
        rows = result.rows;
      } catch (error) {
        throw failure(`read session ${agentId}/${sessionKey}`, error);
      }
      // Row by row: a row that does not parse is skipped, never taken for part of its neighbour.
      return rows.flatMap((row) => parseSessionLog(`${row.line}\n`).events);
    },

    async list() {
      // Times are kept to the millisecond and keys in byte order ("C"), so this is the file store's order.
      const rows = await select(
        `SELECT ${SESSION_COLUMNS} FROM toolsift_sessions ORDER BY updated_at DESC, agent_id, session_key`,
      );
      return rows.map((row) => ({
        agentId: row.agent_id,
        sessionKey: row.session_key,
        updatedAt: new Date(row.updated_ms).toISOString(),
        bytes: Number(row.bytes),
      }));
    },

    // Reads from the cursor on, in page order (one index range scan per query), until `limit` + 1 sessions
    // pass the filter or none are left: a page costs its own rows plus those the filter skips, not the
    // whole table. pageSessions then shapes the page exactly as for the file store.
    async listPage(pageOptions) {
      const { limit, after, filter, content } = pageOptions;
      let cursor: PageRow | undefined;
      if (after !== undefined) {
        const named = parseSessionListId(after);
        const rows = named
          ? await select<PageRow>(
              `SELECT ${SESSION_COLUMNS} FROM toolsift_sessions WHERE agent_id = $1 AND session_key = $2`,
              [named.agentId, named.sessionKey],
            )
          : [];
        cursor = rows[0];
        // A cursor naming no session: pageSessions refuses it with its INVALID_REQUEST.
        if (cursor === undefined) return pageSessions([], pageOptions);
      }
      // A search by content reads the logs of up to MAX_CONTENT_SCAN_SESSIONS candidates (one more tells
      // whether more follow); otherwise the page and one more row are enough.
      const wanted = content === undefined ? limit : MAX_CONTENT_SCAN_SESSIONS;
      // Without a filter, the rows wanted and one more are enough.
      const scan = filter === undefined ? wanted + 1 : Math.max(wanted + 1, SESSION_PAGE_SCAN_ROWS);
      const accepted: SessionStat[] = [];
      for (;;) {
        const rows = await select<PageRow>(
          cursor === undefined ? FIRST_ROWS_SQL : ROWS_AFTER_SQL,
          cursor === undefined ? [scan] : [scan, cursor.created_at, cursor.agent_id, cursor.session_key],
        );
        for (const row of rows) {
          const stat = statOf(row);
          if (filter === undefined || filter(stat)) accepted.push(stat);
        }
        cursor = rows.at(-1);
        if (accepted.length > wanted || rows.length < scan) break;
      }
      if (content === undefined) return pageSessions(accepted, { limit });
      const candidates = pageSessions(accepted, { limit: accepted.length }).data;
      return pageByContent(candidates, limit, content, readLogs);
    },
  };
}
