import {
  type GatewayPresence,
  type GatewayPresenceOptions,
  startGatewayPresence,
} from "./gateway-presence.js";
import { migrateSchema } from "./migrate-schema.js";
import { openPostgresPool, type PostgresPool } from "./open-postgres-pool.js";
import {
  type PostgresListener,
  type PostgresListenerOptions,
  startPostgresListener,
} from "./postgres-listener.js";

/** One simulated gateway of a fleet: its own pool, LISTEN connection and presence on a shared database. */
export interface TestGateway {
  readonly db: PostgresPool;
  readonly listener: PostgresListener;
  readonly presence: GatewayPresence;
  /** Lines its parts logged. */
  readonly logs: string[];
  close(): Promise<void>;
}

/** Migrates `url` (idempotent), then opens a gateway's pool, listener (listening before it resolves) and presence. */
export async function openTestGateway(
  url: string,
  options: { listener?: PostgresListenerOptions; presence?: GatewayPresenceOptions } = {},
): Promise<TestGateway> {
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const db = openPostgresPool(url, { max: 4, onIdleError: () => undefined });
  await migrateSchema(db);
  const listener = startPostgresListener(url, { log, ...options.listener });
  await listener.whenListening();
  const presence = await startGatewayPresence(db, { log, ...options.presence });
  let closed = false;
  return {
    db,
    listener,
    presence,
    logs,
    async close() {
      if (closed) return;
      closed = true;
      await presence.close();
      await listener.close();
      await db.end();
    },
  };
}

/** Resolves once `check` holds (polled every 20 ms); rejects after `timeoutMs` naming `what`. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
