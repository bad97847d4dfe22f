import { randomBytes } from "node:crypto";
import type pg from "pg";
import { SessionQueueFullError } from "../state/types.js";
import type { GatewayPresence } from "./gateway-presence.js";
import { RUN_QUEUE_LOCK_CLASS } from "./limits.js";
import type { PostgresPool } from "./open-postgres-pool.js";
import { NOTIFY_CHANNELS } from "./postgres-listener.js";

/**
 * The rows of toolsift_session_runs: one ticket per run of a session, `waiting` until it is the session's
 * oldest live ticket and no live ticket is `running`, then `running` until its run settles and the ticket is
 * deleted. Tickets of dead gateways (see GatewayPresence) do not count and are deleted by the next admission
 * or claim of their session. Every admission and claim holds a per-session advisory lock for its transaction.
 */

/** Takes the session's advisory lock, registers this gateway as alive and drops the session's dead tickets. */
async function lockSession(
  client: pg.PoolClient,
  presence: GatewayPresence,
  sessionId: string,
): Promise<void> {
  await presence.touch(client);
  await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [RUN_QUEUE_LOCK_CLASS, sessionId]);
  await client.query(
    `DELETE FROM toolsift_session_runs r WHERE r.session_id = $1 AND NOT ${presence.liveSql("r.gateway_id")}`,
    [sessionId],
  );
}

/** A run's ticket, and whether the session was free so the ticket was made `running` at once. */
export type Admission = { ticket: string; running: boolean };

/**
 * Queues a run of `sessionId`: inserts its ticket, `running` at once when the session has no live ticket,
 * else `waiting`. Refuses with SessionQueueFullError when the session already has a run and `maxQueued`
 * waiting (live tickets only).
 */
export async function admitTicket(
  db: PostgresPool,
  presence: GatewayPresence,
  sessionId: string,
  maxQueued: number,
): Promise<Admission> {
  const ticket = `run_${randomBytes(12).toString("hex")}`;
  return db.transaction("queuing a run of the session", async (client) => {
    await lockSession(client, presence, sessionId);
    const pending = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM toolsift_session_runs WHERE session_id = $1",
      [sessionId],
    );
    const count = pending.rows[0]?.n ?? 0;
    if (count > maxQueued) throw new SessionQueueFullError(sessionId);
    const running = count === 0;
    await client.query(
      "INSERT INTO toolsift_session_runs (ticket, session_id, gateway_id, state) VALUES ($1, $2, $3, $4)",
      [ticket, sessionId, presence.id, running ? "running" : "waiting"],
    );
    return { ticket, running };
  });
}

/**
 * Turns `ticket` `running` when it is its session's turn: no other live ticket runs and none waits from
 * earlier. True when claimed. A ticket deleted meanwhile (this gateway was taken for dead during an outage)
 * is queued again, at the back.
 */
export async function claimTicket(
  db: PostgresPool,
  presence: GatewayPresence,
  sessionId: string,
  ticket: string,
): Promise<boolean> {
  return db.transaction("claiming the session for a run", async (client) => {
    await lockSession(client, presence, sessionId);
    await client.query(
      `INSERT INTO toolsift_session_runs (ticket, session_id, gateway_id, state) VALUES ($1, $2, $3, 'waiting')
       ON CONFLICT (ticket) DO NOTHING`,
      [ticket, sessionId, presence.id],
    );
    const claimed = await client.query(
      `UPDATE toolsift_session_runs me SET state = 'running'
       WHERE me.ticket = $1 AND me.state = 'waiting' AND NOT EXISTS (
         SELECT 1 FROM toolsift_session_runs other
         WHERE other.session_id = me.session_id AND other.ticket <> me.ticket
           AND (other.state = 'running' OR other.seq < me.seq))
       RETURNING ticket`,
      [ticket],
    );
    return claimed.rowCount === 1;
  });
}

/** Deletes `tickets` (settled or abandoned runs) and notifies their sessions' waiters, in one statement. */
export async function releaseTickets(db: PostgresPool, tickets: readonly string[]): Promise<void> {
  if (tickets.length === 0) return;
  await db.query(
    "releasing the session's run",
    `WITH gone AS (DELETE FROM toolsift_session_runs WHERE ticket = ANY($1) RETURNING session_id)
     SELECT pg_notify($2, session_id) FROM (SELECT DISTINCT session_id FROM gone) released`,
    [tickets, NOTIFY_CHANNELS.sessionReleased],
  );
}
