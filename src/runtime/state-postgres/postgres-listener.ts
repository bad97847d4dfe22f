import pg from "pg";
import { messageOf } from "../../shared/errors/index.js";
import { CONNECT_TIMEOUT_MS, LISTEN_RETRY_MAX_MS, LISTEN_RETRY_MIN_MS } from "./limits.js";
import { redactedUrl } from "./postgres-unavailable.js";

/** The NOTIFY channels toolsift uses; every payload is short (ids, never content). */
export const NOTIFY_CHANNELS = {
  /** Payload: the id of the approval request just settled. */
  approvalSettled: "toolsift_approval_settled",
  /** Payload: the id of the approval request just published (waiting for a decision). */
  approvalPublished: "toolsift_approval_published",
  /** Payload: `<store tag> <agent id>/<session key>` of a session whose events were just appended. */
  sessionAppended: "toolsift_session_appended",
  /** Payload: empty. A process started following sessions live: appends notify from now on. */
  sessionWatched: "toolsift_session_watched",
  /** Payload: the id of the session whose run just released its claim (or left the queue). */
  sessionReleased: "toolsift_session_released",
} as const;

export type NotifyChannel = (typeof NOTIFY_CHANNELS)[keyof typeof NOTIFY_CHANNELS];

/**
 * This process's one LISTEN connection on the state database. Notifications are dispatched to subscribers of
 * their channel; after every connection (the first one, and each reconnection after a drop) subscribers of
 * `onConnected` are told, since anything notified while no connection listened is lost.
 */
export interface PostgresListener {
  /** Tells `handler` the payload of each notification on `channel`; returns what stops the telling. */
  subscribe(channel: NotifyChannel, handler: (payload: string) => void): () => void;
  /** Tells `handler` after each (re)connection, once LISTEN is in place: re-check what may have been missed. */
  onConnected(handler: () => void): () => void;
  /**
   * While `held`, this connection holds a shared advisory lock on `lock` (taken again after each
   * reconnection; gone with the connection, so a dead process holds nothing), and each time it takes it,
   * sends a notification on `announce`.
   */
  holdShared(lock: readonly [number, number], held: boolean, announce: NotifyChannel): void;
  /** True while the connection is open and listening. */
  readonly listening: boolean;
  /** Resolves once the connection is listening (at once when it is). Never rejects; resolves on close too. */
  whenListening(): Promise<void>;
  /** Ends the connection and stops reconnecting. Idempotent. */
  close(): Promise<void>;
}

/** Options of startPostgresListener. */
export interface PostgresListenerOptions {
  /** Receives one line when the connection drops or cannot be opened (once per outage) and when it is back. */
  log?: (line: string) => void;
  /** First retry delay; doubles up to `retryMaxMs`. Defaults LISTEN_RETRY_MIN_MS / LISTEN_RETRY_MAX_MS. */
  retryMinMs?: number;
  retryMaxMs?: number;
}

/**
 * Opens a dedicated pg.Client (not from the pool: LISTEN holds its connection for the process's life) and
 * LISTENs on every channel of NOTIFY_CHANNELS. A dropped or unopenable connection is retried with a bounded
 * backoff, forever until `close()`. Never throws into the process: faults are logged.
 */
export function startPostgresListener(url: string, options: PostgresListenerOptions = {}): PostgresListener {
  const retryMin = options.retryMinMs ?? LISTEN_RETRY_MIN_MS;
  const retryMax = options.retryMaxMs ?? LISTEN_RETRY_MAX_MS;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const connectedHandlers = new Set<() => void>();
  /** Shared advisory locks this connection holds, by `class,key`, with the channel that announces each. */
  const shared = new Map<string, { lock: readonly [number, number]; announce: NotifyChannel }>();
  let waiters: Array<() => void> = [];
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let down = false;
  let delay = retryMin;
  let timer: NodeJS.Timeout | undefined;

  const log = (line: string) => {
    try {
      options.log?.(line);
    } catch {
      // A failing log must not take the listener down.
    }
  };
  const call = (handler: () => void) => {
    try {
      handler();
    } catch (error) {
      log(`state database listener: a subscriber failed: ${messageOf(error)}`);
    }
  };
  const releaseWaiters = () => {
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };

  /** Shared locks the current connection took (or is taking): `sync` brings it to `shared`. */
  let taken = new Map<string, { lock: readonly [number, number]; announce: NotifyChannel }>();
  const sync = (current: pg.Client) => {
    const send = (sql: string, values: unknown[]) => {
      current.query(sql, values).catch((error: unknown) => lost(current, error));
    };
    for (const [id, entry] of shared) {
      if (taken.has(id)) continue;
      taken.set(id, entry);
      send("SELECT pg_advisory_lock_shared($1, $2), pg_notify($3, '')", [...entry.lock, entry.announce]);
    }
    for (const [id, entry] of [...taken]) {
      if (shared.has(id)) continue;
      taken.delete(id);
      send("SELECT pg_advisory_unlock_shared($1, $2)", [...entry.lock]);
    }
  };

  const lost = (current: pg.Client, error: unknown) => {
    if (client !== current) return;
    client = undefined;
    listening = false;
    current.removeAllListeners("notification");
    current.on("error", () => undefined);
    void current.end().catch(() => undefined);
    if (closed) return;
    if (!down) {
      down = true;
      log(
        `state database listener on ${redactedUrl(url)} lost its connection (${messageOf(error)}); reconnecting in the background.`,
      );
    }
    timer = setTimeout(connect, delay);
    timer.unref();
    delay = Math.min(delay * 2, retryMax);
  };

  const connect = () => {
    timer = undefined;
    if (closed) return;
    const current = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      application_name: "toolsift-listen",
    });
    client = current;
    current.on("error", (error) => lost(current, error));
    current.on("end", () => lost(current, new Error("Connection ended unexpectedly")));
    current.on("notification", (message) => {
      const set = handlers.get(message.channel);
      if (set === undefined) return;
      const payload = message.payload ?? "";
      for (const handler of [...set]) call(() => handler(payload));
    });
    void (async () => {
      try {
        await current.connect();
        for (const channel of Object.values(NOTIFY_CHANNELS)) await current.query(`LISTEN ${channel}`);
      } catch (error) {
        lost(current, error);
        return;
      }
      if (client !== current || closed) return;
      // A new connection holds no lock yet: it takes those held now (queued behind nothing else).
      taken = new Map();
      sync(current);
      listening = true;
      delay = retryMin;
      if (down) {
        down = false;
        log(`state database listener on ${redactedUrl(url)} is listening again.`);
      }
      releaseWaiters();
      for (const handler of [...connectedHandlers]) call(handler);
    })();
  };

  connect();

  return {
    subscribe(channel, handler) {
      let set = handlers.get(channel);
      if (set === undefined) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
    onConnected(handler) {
      connectedHandlers.add(handler);
      return () => {
        connectedHandlers.delete(handler);
      };
    },
    holdShared(lock, held, announce) {
      const id = lock.join(",");
      if (held === shared.has(id)) return;
      if (held) shared.set(id, { lock, announce });
      else shared.delete(id);
      // Not listening yet: the connection takes what is held once it listens.
      if (client !== undefined && listening) sync(client);
    },
    get listening() {
      return listening;
    },
    whenListening() {
      if (listening || closed) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    async close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      const current = client;
      client = undefined;
      listening = false;
      releaseWaiters();
      if (current !== undefined) {
        current.removeAllListeners("notification");
        current.removeAllListeners("end");
        current.on("error", () => undefined);
        await current.end().catch(() => undefined);
      }
    },
  };
}
