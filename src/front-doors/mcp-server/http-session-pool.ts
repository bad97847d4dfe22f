/** What the pool needs of one HTTP MCP session. */
export interface PooledSession {
  /** True while the session has a request in flight (a `tools/call` still running). */
  busy(): boolean;
  /** Ends the session; the pool has already forgotten it. */
  close(): Promise<void>;
}

/** Limits of the pool (`mcp.serve.maxSessions`, `mcp.serve.sessionIdleMs`). */
export interface HttpSessionPoolOptions {
  /** Most sessions kept at once, counting those being initialized. */
  maxSessions: number;
  /** A session without a request for this long (ms) is closed by `sweep`, unless it is busy. */
  idleMs: number;
  /** The clock. Default `Date.now`. */
  now?: () => number;
  /** Told about each eviction. Default: nobody. */
  log?: (line: string) => void;
}

/** A slot held for a session being initialized: filled once it has an id, else released. */
export interface SessionSlot<S> {
  /** Stores the initialized session under `id` (the slot then counts as that session). */
  fill(id: string, session: S): void;
  /** Gives the slot back when no session came of it; a no-op after `fill`. */
  release(): void;
}

/** The live sessions of `mcp serve --http`, least recently used first, bounded by `maxSessions`. */
export interface HttpSessionPool<S extends PooledSession> {
  /**
   * The session under `id`, marked busy until `done` is called. With `recent` (the default) it becomes the
   * most recently used: JSON-RPC messages (POST) count, a client's listening stream (GET) does not. A session
   * `accept` refuses (another client key's) is answered as unknown and left untouched.
   */
  use(
    id: string,
    recent?: boolean,
    accept?: (session: S) => boolean,
  ): { session: S; done(): void } | undefined;
  /**
   * A slot for a new session. When the pool is full, the least recently used session that is not busy is
   * evicted (closed) to make room; undefined when every session is busy.
   */
  reserve(): SessionSlot<S> | undefined;
  /** Forgets `id` without closing it (the client ended it with DELETE). */
  delete(id: string): void;
  /** Closes the sessions idle for `idleMs` or longer; busy ones count as used now. */
  sweep(): void;
  /** Live sessions (not counting slots still initializing). */
  size(): number;
  /** Closes every session. */
  closeAll(): Promise<void>;
}

type Entry<S> = { session: S; seen: number; requests: number };

/**
 * Builds the session pool. The map's insertion order is the recency order (a used session is moved to
 * the end), so eviction never depends on two timestamps differing. A session counts as busy while an
 * HTTP request for it is being handled or its connection still runs a call (`busy()`): those are never
 * evicted or swept, so a long call is never cut off by a newcomer.
 */
export function createHttpSessionPool<S extends PooledSession>(
  options: HttpSessionPoolOptions,
): HttpSessionPool<S> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<S>>();
  let initializing = 0;

  const isBusy = (entry: Entry<S>) => entry.requests > 0 || entry.session.busy();
  const drop = (id: string, entry: Entry<S>) => {
    entries.delete(id);
    entry.session.close().catch(() => {});
  };

  return {
    use(id, recent = true, accept) {
      const entry = entries.get(id);
      if (!entry || (accept !== undefined && !accept(entry.session))) return undefined;
      if (recent) {
        entries.delete(id);
        entries.set(id, entry);
        entry.seen = now();
      }
      entry.requests += 1;
      let released = false;
      return {
        session: entry.session,
        done() {
          if (released) return;
          released = true;
          entry.requests -= 1;
          if (recent) entry.seen = now();
        },
      };
    },
    reserve() {
      if (entries.size + initializing >= options.maxSessions) {
        const victim = [...entries].find(([, entry]) => !isBusy(entry));
        if (!victim) return undefined;
        drop(...victim);
        options.log?.(
          `mcp serve: session limit (${options.maxSessions}) reached: closed the least recently used idle session to admit a new one`,
        );
      }
      initializing += 1;
      let open = true;
      const settle = () => {
        if (!open) return false;
        open = false;
        initializing -= 1;
        return true;
      };
      return {
        fill(id, session) {
          if (settle()) entries.set(id, { session, seen: now(), requests: 0 });
        },
        release() {
          settle();
        },
      };
    },
    delete(id) {
      entries.delete(id);
    },
    sweep() {
      const time = now();
      for (const [id, entry] of [...entries]) {
        if (isBusy(entry)) entry.seen = time;
        else if (time - entry.seen >= options.idleMs) drop(id, entry);
      }
    },
    size: () => entries.size,
    async closeAll() {
      const open = [...entries.values()];
      entries.clear();
      await Promise.all(open.map((entry) => entry.session.close().catch(() => {})));
    },
  };
}
