import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type pg from "pg";
import { messageOf } from "../../shared/errors/index.js";
import { DEAD_GATEWAY_FORGET_MS, HEARTBEAT_MS, PRESENCE_TTL_MS } from "./limits.js";
import type { PostgresPool } from "./open-postgres-pool.js";

/**
 * This process's row in toolsift_gateways, kept fresh by a heartbeat. A gateway whose heartbeat is older than
 * `ttlMs` by the database's clock is dead: its run claims, queued runs and pending approvals no longer count.
 */
export interface GatewayPresence {
  /** `gw_<24 hex>`, fresh per process. */
  readonly id: string;
  /** How old a heartbeat may be before its gateway counts as dead. */
  readonly ttlMs: number;
  /**
   * A SQL condition true when the gateway whose id is in `column` is alive: its row exists and its heartbeat
   * is within `ttlMs` by the database's clock, or the database server itself started less than `ttlMs` ago
   * (after a server restart every gateway gets one TTL to resume its heartbeat before it counts as dead).
   * `column` is trusted SQL (a column reference), never input.
   */
  liveSql(column: string): string;
  /**
   * Makes sure this gateway counts as alive on `client` (inside a caller's transaction, before it writes
   * claims): a no-op while heartbeats succeed, a refresh of the row (re-creating it) when the last one failed.
   */
  touch(client: pg.PoolClient): Promise<void>;
  /** Stops the heartbeat and deletes this gateway's row (so whatever it claimed frees at once). Idempotent. */
  close(): Promise<void>;
}

/** Options of startGatewayPresence. */
export interface GatewayPresenceOptions {
  /** Receives one line when heartbeats start failing (once per outage) and one when they succeed again. */
  log?: (line: string) => void;
  /** Default HEARTBEAT_MS. */
  heartbeatMs?: number;
  /** Default PRESENCE_TTL_MS. Every process of a fleet must use the same value. */
  ttlMs?: number;
}

const UPSERT = `INSERT INTO toolsift_gateways (id, host, pid) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE SET heartbeat_at = clock_timestamp()`;

/**
 * Registers this process in toolsift_gateways (a random id, the host name, the pid) and refreshes its
 * heartbeat every `heartbeatMs` on the pool; each heartbeat also forgets gateways dead for over an hour.
 * Failures never throw: they are logged once per outage and heartbeats resume by themselves (re-creating the
 * row when it went missing). Resolves after the first attempt, whether it succeeded or not.
 */
export async function startGatewayPresence(
  db: PostgresPool,
  options: GatewayPresenceOptions = {},
): Promise<GatewayPresence> {
  const id = `gw_${randomBytes(12).toString("hex")}`;
  const host = hostname();
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const ttlMs = Math.max(1, Math.round(options.ttlMs ?? PRESENCE_TTL_MS));
  let closed = false;
  let down = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  /** performance.now() of the last heartbeat that succeeded (only to decide whether to refresh, never liveness). */
  let lastBeat = Number.NEGATIVE_INFINITY;

  const log = (line: string) => {
    try {
      options.log?.(line);
    } catch {
      // A failing log must not stop the heartbeat.
    }
  };

  const beat = async () => {
    try {
      await db.query("refreshing this gateway's heartbeat", UPSERT, [id, host, process.pid]);
      lastBeat = performance.now();
      await db.query(
        "forgetting long-dead gateways",
        `DELETE FROM toolsift_gateways WHERE heartbeat_at < clock_timestamp() - interval '${DEAD_GATEWAY_FORGET_MS} milliseconds'`,
      );
      if (down) {
        down = false;
        log(`gateway ${id}: heartbeats to the state database resumed.`);
      }
    } catch (error) {
      if (!down) {
        down = true;
        log(
          `gateway ${id}: heartbeat failed (${messageOf(error)}); retrying every ${heartbeatMs} ms. After ${ttlMs} ms without one, other gateways treat this one's runs as gone.`,
        );
      }
    }
  };

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      inFlight = beat().finally(schedule);
    }, heartbeatMs);
    timer.unref();
  };

  inFlight = beat();
  await inFlight;
  schedule();

  return {
    id,
    ttlMs,
    liveSql: (column) =>
      `EXISTS (SELECT 1 FROM toolsift_gateways live_gw WHERE live_gw.id = ${column} AND (live_gw.heartbeat_at > clock_timestamp() - interval '${ttlMs} milliseconds' OR pg_postmaster_start_time() > clock_timestamp() - interval '${ttlMs} milliseconds'))`,
    async touch(client) {
      if (!down && performance.now() - lastBeat < 2 * heartbeatMs) return;
      await client.query(UPSERT, [id, host, process.pid]);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      await inFlight.catch(() => undefined);
      try {
        await db.query(
          "removing this gateway from the state database",
          "DELETE FROM toolsift_gateways WHERE id = $1",
          [id],
        );
      } catch (error) {
        log(
          `gateway ${id}: could not remove its row (${messageOf(error)}); other gateways treat its runs as gone after ${ttlMs} ms.`,
        );
      }
    },
  };
}
