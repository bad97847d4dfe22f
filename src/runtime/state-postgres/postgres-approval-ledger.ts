import { messageOf } from "../../shared/errors/index.js";
import type { PendingApproval } from "../approvals/types.js";
import type { ApprovalLedger, ApprovalSettlement } from "../state/types.js";
import type { GatewayPresence } from "./gateway-presence.js";
import { APPROVAL_RECHECK_MS } from "./limits.js";
import type { PostgresPool } from "./open-postgres-pool.js";
import { NOTIFY_CHANNELS, type PostgresListener } from "./postgres-listener.js";
import { RecentIds } from "./recent-ids.js";

/** An ApprovalLedger on PostgreSQL that also stops its safety-net timer and subscriptions. */
export interface PostgresApprovalLedger extends ApprovalLedger {
  /** Stops telling listeners and the re-check timer (the database rows stay). Idempotent. */
  close(): void;
}

/** Options of createPostgresApprovalLedger. */
export interface PostgresApprovalLedgerOptions {
  /** How often unsettled requests published here are re-read. Default APPROVAL_RECHECK_MS. */
  recheckMs?: number;
  /** Receives one line per fault of the background re-check or notification handling. */
  log?: (line: string) => void;
}

type SettlementRow = {
  id: string;
  decision: "allow" | "deny";
  outcome: string | null;
  reason: string | null;
  decided_by: string | null;
  note: string | null;
};

/** A settlement as read back (its time is the column `decided_at`, which a waiting run does not need). */
const settlementOf = (row: SettlementRow): ApprovalSettlement => ({
  verdict: row.decision,
  outcome: row.outcome ?? "",
  ...(row.reason === null ? {} : { reason: row.reason }),
  ...(row.decided_by === null ? {} : { decidedBy: row.decided_by }),
  ...(row.note === null ? {} : { note: row.note }),
});

/**
 * Pending approvals in toolsift_approvals, shared by the fleet. The first settlement wins (a conditional
 * UPDATE) and is announced with NOTIFY in the same transaction; every process's onSettled listeners are told
 * once per settled id. A publish is announced the same way (one statement: the INSERT and its NOTIFY), and
 * every other process's onPublished listeners are told, so their views of the pending list read it again at
 * once. A lost notification (the LISTEN connection was down) is caught up after the listener reconnects and
 * by re-reading, every `recheckMs`, the requests this process published and still waits on.
 * Database faults reject with STORAGE_UNAVAILABLE.
 */
export function createPostgresApprovalLedger(
  db: PostgresPool,
  listener: PostgresListener,
  presence: GatewayPresence,
  options: PostgresApprovalLedgerOptions = {},
): PostgresApprovalLedger {
  const listeners = new Set<(id: string, settlement: ApprovalSettlement) => void>();
  const publishedListeners = new Set<() => void>();
  /** Ids published through this ledger: their notification comes back here, and is not told again. */
  const publishedHere = new RecentIds();
  /** Requests published here whose settlement no listener has been told of yet. */
  const waiting = new Set<string>();
  /** Ids listeners were told of (so a settlement seen twice, by NOTIFY and by a re-read, is told once). */
  const told = new RecentIds();
  let closed = false;

  const log = (line: string) => {
    try {
      options.log?.(line);
    } catch {
      // A failing log must not break the ledger.
    }
  };

  const tell = (id: string, settlement: ApprovalSettlement) => {
    waiting.delete(id);
    if (closed || told.has(id)) return;
    told.add(id);
    for (const listener of [...listeners]) {
      try {
        listener(id, settlement);
      } catch (error) {
        log(`approval ledger: an onSettled listener failed for ${id}: ${messageOf(error)}`);
      }
    }
  };

  const read = async (ids: readonly string[]): Promise<SettlementRow[]> => {
    const rows = await db.query<SettlementRow>(
      "reading approval settlements",
      "SELECT id, decision, outcome, reason, decided_by, note FROM toolsift_approvals WHERE id = ANY($1) AND decision IS NOT NULL",
      [ids],
    );
    return rows.rows;
  };

  const catchUp = async () => {
    if (closed || waiting.size === 0) return;
    try {
      for (const row of await read([...waiting])) tell(row.id, settlementOf(row));
    } catch (error) {
      log(`approval ledger: re-reading unsettled requests failed (${messageOf(error)}); retrying later.`);
    }
  };

  const unsubscribe = listener.subscribe(NOTIFY_CHANNELS.approvalSettled, (id) => {
    if (closed || told.has(id)) return;
    void read([id]).then(
      (rows) => {
        for (const row of rows) tell(row.id, settlementOf(row));
      },
      (error: unknown) =>
        log(
          `approval ledger: reading settlement of ${id} failed (${messageOf(error)}); the re-check will catch it.`,
        ),
    );
  });
  const tellPublished = () => {
    if (closed) return;
    for (const published of [...publishedListeners]) {
      try {
        published();
      } catch (error) {
        log(`approval ledger: an onPublished listener failed: ${messageOf(error)}`);
      }
    }
  };
  const unpublished = listener.subscribe(NOTIFY_CHANNELS.approvalPublished, (id) => {
    if (!publishedHere.has(id)) tellPublished();
  });
  // After a (re)connection, requests published while nobody listened may be missing from views: re-read.
  const unconnected = listener.onConnected(() => {
    void catchUp();
    tellPublished();
  });
  const timer = setInterval(() => void catchUp(), options.recheckMs ?? APPROVAL_RECHECK_MS);
  timer.unref();

  return {
    async publish(request) {
      publishedHere.add(request.id);
      await db.query(
        "publishing an approval request",
        `WITH request AS (
           INSERT INTO toolsift_approvals (id, request, key_id, gateway_id, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id
         )
         SELECT pg_notify('${NOTIFY_CHANNELS.approvalPublished}', id) FROM request`,
        [
          request.id,
          JSON.stringify(request),
          request.keyId ?? null,
          presence.id,
          request.createdAt,
          request.expiresAt,
        ],
      );
      waiting.add(request.id);
    },
    async list() {
      const rows = await db.query<{ request: PendingApproval }>(
        "listing pending approvals",
        `SELECT request FROM toolsift_approvals a
         WHERE decision IS NULL AND expires_at > clock_timestamp() AND ${presence.liveSql("a.gateway_id")}
         ORDER BY created_at, id`,
      );
      return rows.rows.map((row) => row.request);
    },
    async settle(id, settlement) {
      const won = await db.transaction("settling an approval request", async (client) => {
        const updated = await client.query(
          `UPDATE toolsift_approvals SET decision = $2, outcome = $3, reason = $4, decided_by = $5, note = $6,
             decided_at = COALESCE($7::timestamptz, clock_timestamp())
           WHERE id = $1 AND decision IS NULL RETURNING id`,
          [
            id,
            settlement.verdict,
            settlement.outcome,
            settlement.reason ?? null,
            settlement.decidedBy ?? null,
            settlement.note ?? null,
            settlement.decidedAt ?? null,
          ],
        );
        if (updated.rowCount !== 1) return false;
        await client.query("SELECT pg_notify($1, $2)", [NOTIFY_CHANNELS.approvalSettled, id]);
        return true;
      });
      if (won) tell(id, { ...settlement });
      return won;
    },
    async settlement(id) {
      const rows = await read([id]);
      const row = rows[0];
      return row === undefined ? undefined : settlementOf(row);
    },
    onSettled(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    onPublished(listener) {
      publishedListeners.add(listener);
      return () => {
        publishedListeners.delete(listener);
      };
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      unsubscribe();
      unpublished();
      unconnected();
      listeners.clear();
      publishedListeners.clear();
      waiting.clear();
    },
  };
}
