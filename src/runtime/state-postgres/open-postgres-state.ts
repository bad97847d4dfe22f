import { isToolsiftError, messageOf } from "../../shared/errors/index.js";
import type { StateStore } from "../state/index.js";
import { forgetSettledApprovals } from "./forget-settled-approvals.js";
import { startGatewayPresence } from "./gateway-presence.js";
import { migrateSchema } from "./migrate-schema.js";
import { openPostgresPool, type PostgresPool, redactedUrl } from "./open-postgres-pool.js";
import { createPostgresApprovalLedger } from "./postgres-approval-ledger.js";
import {
  createPostgresConsoleSessionStore,
  forgetExpiredConsoleSessions,
} from "./postgres-console-sessions.js";
import { startPostgresListener } from "./postgres-listener.js";
import { createPostgresResponseStore } from "./postgres-response-store.js";
import { createPostgresRunQueue, type PostgresRunQueue } from "./postgres-run-queue.js";
import { createPostgresSessionStore } from "./postgres-session-store.js";
import { prunePostgresState } from "./prune-postgres-state.js";

/** Options of openPostgresState. */
export interface PostgresStateOptions {
  /** Receives outages, recoveries and migrations, one line each (the URL's password hidden). Default: dropped. */
  log?: (line: string) => void;
}

/**
 * `db` whose every statement first makes sure the schema is applied (`ensure`, memoised once it succeeded):
 * a gateway that started while the database was unreachable applies it on its first statement after.
 */
function afterSchema(db: PostgresPool, ensure: () => Promise<void>): PostgresPool {
  return {
    url: db.url,
    pool: db.pool,
    query: async (action, text, values) => {
      await ensure();
      return db.query(action, text, values);
    },
    transaction: async (action, work) => {
      await ensure();
      return db.transaction(action, work);
    },
    end: () => db.end(),
  };
}

/**
 * The StateStore of a fleet: sessions, stored responses, pending approvals, console sessions and the per-session run order in
 * the PostgreSQL database at `url`, shared by every process on it. Applies pending migrations at once (under
 * the migration lock, so gateways starting together apply each once). A database that cannot be reached now
 * is not fatal: the store opens, every operation fails with STORAGE_UNAVAILABLE (the gateway's 503) and the
 * schema is applied on the first statement once it is back. A database that refuses for good (a schema newer
 * than this build) throws CONFIG_INVALID and nothing is left open.
 */
export async function openPostgresState(
  url: string,
  options: PostgresStateOptions = {},
): Promise<StateStore> {
  const log = options.log ?? (() => {});
  const where = redactedUrl(url);
  let idleFaults = 0;
  const raw = openPostgresPool(url, {
    // The pool replaces a connection that died while idle; the statements that need one say why they failed.
    onIdleError: (error) => {
      idleFaults += 1;
      if (idleFaults === 1) log(`state database ${where}: an idle connection failed (${error.message})`);
    },
  });
  let ready: Promise<void> | undefined;
  const ensure = (): Promise<void> => {
    ready ??= migrateSchema(raw).then(
      ({ applied }) => {
        if (applied.length > 0)
          log(`state database ${where}: applied schema migrations ${applied.join(", ")}`);
      },
      (error: unknown) => {
        ready = undefined;
        throw error;
      },
    );
    return ready;
  };
  try {
    await ensure();
  } catch (error) {
    if (!isToolsiftError(error) || error.code !== "STORAGE_UNAVAILABLE") {
      await raw.end().catch(() => undefined);
      throw error;
    }
    log(
      `state database unreachable at start: ${messageOf(error)} Runs are refused (503) and /healthz answers 503 until it is reachable; the schema is applied then.`,
    );
  }
  const db = afterSchema(raw, ensure);
  const listener = startPostgresListener(url, { log });
  const presence = await startGatewayPresence(db, { log });
  const approvals = createPostgresApprovalLedger(db, listener, presence, { log });
  const sessions = createPostgresSessionStore(db, { onStorageFault: log, listener });
  const queues = new Set<PostgresRunQueue>();
  let closing: Promise<void> | undefined;
  return {
    kind: "postgres",
    where,
    sessions,
    responses: createPostgresResponseStore(db),
    approvals,
    consoleSessions: createPostgresConsoleSessionStore(db),
    createRunQueue(queueOptions) {
      const queue = createPostgresRunQueue(db, listener, presence, { ...queueOptions, log });
      queues.add(queue);
      return queue;
    },
    async prune(retention) {
      const report = await prunePostgresState(db, retention);
      await forgetSettledApprovals(db);
      await forgetExpiredConsoleSessions(db);
      return report;
    },
    async probe() {
      try {
        await ensure();
      } catch (error) {
        return { writable: false, reason: messageOf(error) };
      }
      return (await sessions.probeWritable?.()) ?? { writable: true };
    },
    close() {
      closing ??= (async () => {
        for (const queue of queues) await queue.close().catch(() => undefined);
        approvals.close();
        await presence.close().catch(() => undefined);
        await listener.close().catch(() => undefined);
        await raw.end().catch(() => undefined);
      })();
      return closing;
    },
  };
}
