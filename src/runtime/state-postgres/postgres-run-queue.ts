import { messageOf, ToolsiftError } from "../../shared/errors/index.js";
import { type QueueStats, type SessionRunQueue, turnAfter } from "../state/index.js";
import type { GatewayPresence } from "./gateway-presence.js";
import { RUN_QUEUE_POLL_MS, RUN_RELEASE_RETRY_MS } from "./limits.js";
import type { PostgresPool } from "./open-postgres-pool.js";
import { NOTIFY_CHANNELS, type PostgresListener } from "./postgres-listener.js";
import { type Admission, admitTicket, claimTicket, releaseTickets } from "./session-run-tickets.js";

/** A SessionRunQueue on PostgreSQL that also releases this queue's tickets and timers. */
export interface PostgresRunQueue extends SessionRunQueue {
  /**
   * Refuses new runs, rejects the waiting ones (STORAGE_UNAVAILABLE) and deletes every ticket of this queue,
   * running ones included, so other gateways may go on at once. Idempotent.
   */
  close(): Promise<void>;
}

/** Options of createPostgresRunQueue. */
export interface PostgresRunQueueOptions {
  /** Most runs waiting per session across the fleet, besides the running one (beyond: SessionQueueFullError). */
  maxQueuedPerSession: number;
  /** How often a waiting run re-tries its claim without a notification. Default RUN_QUEUE_POLL_MS. */
  pollMs?: number;
  /** How often a failed release is retried. Default RUN_RELEASE_RETRY_MS. */
  releaseRetryMs?: number;
  /** Receives one line when releases start failing (once per outage) and when they succeed again. */
  log?: (line: string) => void;
}

const closedError = () =>
  new ToolsiftError(
    "STORAGE_UNAVAILABLE",
    "The state store is closed (the gateway is shutting down): send the run to another gateway of the fleet.",
  );

/**
 * Serialises runs per session across every gateway on the database. Each run gets a ticket (admission counts
 * the session's live tickets against `maxQueuedPerSession`, and claims the session at once when it has none),
 * else claims the session later, when its ticket is the oldest and none runs; until then it waits for a `toolsift_session_released` notification of its session,
 * the listener's reconnection, or the next poll (how a crashed holder's claim is noticed once its presence
 * lapses). Admissions of one session in this process are made one after another, so this process's runs of a
 * session start in the order `run` was called. Settled runs delete their ticket and notify; a release that
 * fails is retried until it succeeds (a dead process's tickets lapse with its presence).
 */
export function createPostgresRunQueue(
  db: PostgresPool,
  listener: PostgresListener,
  presence: GatewayPresence,
  options: PostgresRunQueueOptions,
): PostgresRunQueue {
  const pollMs = options.pollMs ?? RUN_QUEUE_POLL_MS;
  const retryMs = options.releaseRetryMs ?? RUN_RELEASE_RETRY_MS;
  const admissions = new Map<string, Promise<void>>();
  /** Per session, when this process's latest run of it has claimed the session or left the queue. */
  const turns = new Map<string, Promise<void>>();
  const wakers = new Map<string, Set<() => void>>();
  /** Tickets of this queue in the database (waiting or running). */
  const tickets = new Set<string>();
  /** Tickets whose release failed, retried every `retryMs`. */
  const unreleased = new Set<string>();
  let retryTimer: NodeJS.Timeout | undefined;
  let releaseDown = false;
  let closed = false;
  let running = 0;
  let queued = 0;

  const log = (line: string) => {
    try {
      options.log?.(line);
    } catch {
      // A failing log must not break the queue.
    }
  };

  const wake = (sessionId: string) => {
    for (const waker of [...(wakers.get(sessionId) ?? [])]) waker();
  };
  const wakeAll = () => {
    for (const sessionId of [...wakers.keys()]) wake(sessionId);
  };
  const unsubscribe = listener.subscribe(NOTIFY_CHANNELS.sessionReleased, wake);
  const unconnected = listener.onConnected(wakeAll);

  /** Resolves on a release of `sessionId`, after `pollMs`, or at once when woken before; rejects on abort. */
  const armWake = (sessionId: string, signal: AbortSignal | undefined) => {
    let woken = false;
    let resolveWait: (() => void) | undefined;
    const waker = () => {
      woken = true;
      resolveWait?.();
    };
    let set = wakers.get(sessionId);
    if (set === undefined) {
      set = new Set();
      wakers.set(sessionId, set);
    }
    set.add(waker);
    const disarm = () => {
      const current = wakers.get(sessionId);
      current?.delete(waker);
      if (current?.size === 0) wakers.delete(sessionId);
    };
    const wait = () =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        if (woken) {
          resolve();
          return;
        }
        const timer = setTimeout(done, pollMs);
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener("abort", aborted);
          resolve();
        }
        function aborted() {
          clearTimeout(timer);
          reject(signal?.reason);
        }
        resolveWait = done;
        signal?.addEventListener("abort", aborted, { once: true });
      });
    return { wait, disarm };
  };

  const retryReleases = async () => {
    retryTimer = undefined;
    const batch = [...unreleased];
    try {
      await releaseTickets(db, batch);
      for (const ticket of batch) {
        unreleased.delete(ticket);
        tickets.delete(ticket);
      }
      if (releaseDown) {
        releaseDown = false;
        log("run queue: releasing settled runs works again.");
      }
    } catch (error) {
      if (!releaseDown) {
        releaseDown = true;
        log(
          `run queue: releasing a settled run failed (${messageOf(error)}); retrying every ${retryMs} ms (its session stays claimed until then, or until this gateway's presence lapses).`,
        );
      }
      if (!closed) scheduleRetry();
    }
  };
  const scheduleRetry = () => {
    if (retryTimer !== undefined || unreleased.size === 0) return;
    retryTimer = setTimeout(() => void retryReleases(), retryMs);
    retryTimer.unref();
  };
  const release = (ticket: string, sessionId: string) => {
    if (!tickets.has(ticket)) return;
    unreleased.add(ticket);
    if (retryTimer === undefined) void retryReleases().then(() => wake(sessionId));
  };

  /** Waits until `ticket` holds its session; throws on abort, close or a database fault. */
  const takeTurn = async (sessionId: string, ticket: string, signal: AbortSignal | undefined) => {
    for (;;) {
      if (closed) throw closedError();
      if (signal?.aborted) throw signal.reason;
      const waker = armWake(sessionId, signal);
      try {
        if (await claimTicket(db, presence, sessionId, ticket)) return;
        await waker.wait();
      } finally {
        waker.disarm();
      }
    }
  };

  /**
   * Orders this process's runs of `sessionId`: resolves once the previous one claimed the session or left
   * (rejects at once when `signal` aborts first), so only one of them at a time polls the database. Returns
   * what starts that wait and what the caller calls once its own run claimed or left.
   */
  const lineUp = (sessionId: string, signal: AbortSignal | undefined) => {
    const previous = turns.get(sessionId) ?? Promise.resolve();
    let settle: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const tail = Promise.all([previous, mine]).then(() => undefined);
    turns.set(sessionId, tail);
    void tail.then(() => {
      if (turns.get(sessionId) === tail) turns.delete(sessionId);
    });
    return { previous: () => turnAfter(previous, signal), done: settle };
  };

  const admit = (sessionId: string): Promise<Admission> => {
    const previous = admissions.get(sessionId) ?? Promise.resolve();
    const admitted = previous.then(() => {
      if (closed) throw closedError();
      return admitTicket(db, presence, sessionId, options.maxQueuedPerSession);
    });
    const done = admitted.then(
      (admission) => {
        tickets.add(admission.ticket);
      },
      () => undefined,
    );
    admissions.set(sessionId, done);
    void done.then(() => {
      if (admissions.get(sessionId) === done) admissions.delete(sessionId);
    });
    return admitted;
  };

  return {
    async run<T>(sessionId: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (closed) throw closedError();
      if (signal?.aborted) throw signal.reason;
      queued += 1;
      const line = lineUp(sessionId, signal);
      let ticket: string | undefined;
      try {
        const admission = await admit(sessionId);
        ticket = admission.ticket;
        tickets.add(ticket);
        await line.previous();
        if (!admission.running) await takeTurn(sessionId, ticket, signal);
        if (signal?.aborted) throw signal.reason;
      } catch (error) {
        queued -= 1;
        line.done();
        if (ticket !== undefined) release(ticket, sessionId);
        throw error;
      }
      queued -= 1;
      running += 1;
      line.done();
      try {
        return await task();
      } finally {
        running -= 1;
        release(ticket, sessionId);
      }
    },
    stats(): QueueStats {
      return { running, queued };
    },
    async close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      unconnected();
      wakeAll();
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      retryTimer = undefined;
      const mine = [...tickets];
      try {
        await releaseTickets(db, mine);
        tickets.clear();
        unreleased.clear();
      } catch (error) {
        log(
          `run queue: releasing this gateway's runs on close failed (${messageOf(error)}); other gateways take over once its presence lapses.`,
        );
      }
    },
  };
}
