import { ACTIVE_SESSION_GRACE_MS, type PruneReport, type SessionRetention } from "../sessions/index.js";
import { PRUNE_SESSIONS_PER_STATEMENT } from "./limits.js";
import type { PostgresPool } from "./open-postgres-pool.js";

/** Inputs of {@link prunePostgresState}: `sessions.retention`, and the grace for running sessions. */
export type PrunePostgresStateOptions = SessionRetention & {
  /**
   * Sessions written in the last this many ms are never removed, whatever the limits say: they may be
   * running. Default ACTIVE_SESSION_GRACE_MS (one hour).
   */
  activeGraceMs?: number;
};

/**
 * What a pass removed: `removed` holds the sessions' list ids (`<agent>/<key>`), `removedBytes` and
 * `keptBytes` their line bytes (as the file store's sizes), `removedResponses` the stored responses removed
 * with their sessions or for their age.
 */
export type PostgresPruneReport = PruneReport & { removedResponses: number };

const DAY_MS = 24 * 60 * 60 * 1000;

type Candidate = { agent_id: string; session_key: string; bytes: string; updated_at: string; age_ms: number };

/** Every session, oldest write first, with its age by the database's clock (the clock that wrote the times). */
const CANDIDATES_SQL = `SELECT agent_id, session_key, bytes, updated_at::text AS updated_at,
  (extract(epoch FROM clock_timestamp() - updated_at) * 1000)::float8 AS age_ms
FROM toolsift_sessions ORDER BY updated_at, agent_id, session_key`;

/**
 * Removes the named sessions (their events cascade) and their stored responses, in one statement. A session
 * written since it was read (a later `updated_at`) is kept: it is in use again.
 * $1 agents, $2 keys, $3 the `updated_at` each had when read.
 */
const REMOVE_SQL = `WITH gone AS (
  DELETE FROM toolsift_sessions s
  USING unnest($1::text[], $2::text[], $3::timestamptz[]) AS doomed(agent_id, session_key, updated_at)
  WHERE s.agent_id = doomed.agent_id AND s.session_key = doomed.session_key AND s.updated_at <= doomed.updated_at
  RETURNING s.agent_id, s.session_key, s.bytes
), responses AS (
  DELETE FROM toolsift_responses r USING gone
  WHERE r.agent_id = gone.agent_id AND r.session_key = gone.session_key
  RETURNING 1
)
SELECT (SELECT coalesce(json_agg(json_build_array(agent_id, session_key, bytes)), '[]') FROM gone) AS gone,
  (SELECT count(*) FROM responses)::integer AS responses`;

/**
 * Applies `sessions.retention` to the state database as pruneSessionLogs does to the state directory:
 * sessions whose last write is older than `maxAgeDays` are removed, then, while the rest is over
 * `maxTotalBytes`, the oldest first; a session written in the last `activeGraceMs` is never removed, even
 * when that leaves the total over the limit. A removed session's events and stored responses go with it, and
 * stored responses older than `maxAgeDays` are removed too. Removals run PRUNE_SESSIONS_PER_STATEMENT
 * sessions per statement (each whole or not at all); ages are measured by the database's clock. A database
 * fault rejects with STORAGE_UNAVAILABLE (what earlier statements removed stays removed).
 */
export async function prunePostgresState(
  db: PostgresPool,
  options: PrunePostgresStateOptions = {},
): Promise<PostgresPruneReport> {
  const grace = options.activeGraceMs ?? ACTIVE_SESSION_GRACE_MS;
  const sessions = (await db.query<Candidate>("reading sessions to prune", CANDIDATES_SQL)).rows;
  let total = sessions.reduce((sum, session) => sum + Number(session.bytes), 0);
  const doomed: Candidate[] = [];
  for (const session of sessions) {
    if (session.age_ms < grace) continue;
    const tooOld = options.maxAgeDays !== undefined && session.age_ms > options.maxAgeDays * DAY_MS;
    const tooMuch = options.maxTotalBytes !== undefined && total > options.maxTotalBytes;
    if (!tooOld && !tooMuch) continue;
    doomed.push(session);
    total -= Number(session.bytes);
  }

  const report: PostgresPruneReport = { removed: [], removedBytes: 0, keptBytes: 0, removedResponses: 0 };
  for (let start = 0; start < doomed.length; start += PRUNE_SESSIONS_PER_STATEMENT) {
    const batch = doomed.slice(start, start + PRUNE_SESSIONS_PER_STATEMENT);
    const result = await db.query<{ gone: Array<[string, string, number | string]>; responses: number }>(
      "pruning sessions",
      REMOVE_SQL,
      [batch.map((s) => s.agent_id), batch.map((s) => s.session_key), batch.map((s) => s.updated_at)],
    );
    const row = result.rows[0];
    const gone = new Map(
      (row?.gone ?? []).map(([agentId, sessionKey, bytes]) => [`${agentId}/${sessionKey}`, bytes]),
    );
    // Reported oldest first, as they were chosen.
    for (const session of batch) {
      const id = `${session.agent_id}/${session.session_key}`;
      const bytes = gone.get(id);
      if (bytes === undefined) continue;
      report.removed.push(id);
      report.removedBytes += Number(bytes);
    }
    report.removedResponses += row?.responses ?? 0;
  }
  report.keptBytes = sessions.reduce((sum, session) => sum + Number(session.bytes), 0) - report.removedBytes;

  if (options.maxAgeDays !== undefined) {
    const old = await db.query(
      "pruning stored responses",
      "DELETE FROM toolsift_responses WHERE created_at < clock_timestamp() - make_interval(secs => $1)",
      [(options.maxAgeDays * DAY_MS) / 1000],
    );
    report.removedResponses += old.rowCount ?? 0;
  }
  return report;
}
