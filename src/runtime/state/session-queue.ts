import { type QueueStats, SessionQueueFullError, type SessionRunQueue } from "./types.js";

/**
 * Serialises tasks per key: a task starts only after every earlier task of its key settled (fulfilled or
 * rejected); tasks of different keys run concurrently. Idle keys hold no memory. `admits(key)` says whether
 * one more task of `key` fits behind its running one (at most `maxQueuedPerKey` wait; default unbounded).
 */
export class SessionQueue {
  readonly #tails = new Map<string, Promise<void>>();
  /** Tasks of each key not yet settled (the running one and those waiting behind it). */
  readonly #pending = new Map<string, number>();
  readonly #maxQueuedPerKey: number;
  #running = 0;
  #queued = 0;

  constructor(options: { maxQueuedPerKey?: number } = {}) {
    this.#maxQueuedPerKey = options.maxQueuedPerKey ?? Number.POSITIVE_INFINITY;
  }

  /** False when `key` already has a task running and `maxQueuedPerKey` tasks waiting behind it. */
  admits(key: string): boolean {
    return (this.#pending.get(key) ?? 0) <= this.#maxQueuedPerKey;
  }

  /**
   * Runs `task` after the earlier tasks of `key`; resolves or rejects as the task does. When `signal` aborts
   * before the task's turn, the task leaves the queue at once (rejecting with the signal's reason) and never
   * starts; later tasks of `key` still wait for the earlier ones.
   */
  run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    this.#queued += 1;
    this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
    let left = false;
    const result = turnAfter(previous, signal).then(
      async () => {
        this.#queued -= 1;
        this.#running += 1;
        try {
          return await task();
        } finally {
          this.#running -= 1;
        }
      },
      (reason: unknown) => {
        left = true;
        this.#queued -= 1;
        this.#countOut(key);
        throw reason;
      },
    );
    const tail = Promise.all([previous, result.catch(() => undefined)]).then(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (!left) this.#countOut(key);
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  #countOut(key: string): void {
    const pending = (this.#pending.get(key) ?? 1) - 1;
    if (pending > 0) this.#pending.set(key, pending);
    else this.#pending.delete(key);
  }

  /** Current counts, for observability and tests. */
  stats(): QueueStats {
    return { running: this.#running, queued: this.#queued };
  }

  /** Number of keys with a task running or waiting. */
  get activeKeys(): number {
    return this.#tails.size;
  }
}

/** Resolves when `previous` settled, or rejects with the reason as soon as `signal` aborts (whichever is first). */
export function turnAfter(previous: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return previous;
  return new Promise((resolve, reject) => {
    const leave = () => reject(signal.reason);
    if (signal.aborted) {
      leave();
      return;
    }
    signal.addEventListener("abort", leave, { once: true });
    void previous.then(() => {
      signal.removeEventListener("abort", leave);
      resolve();
    });
  });
}

/**
 * The in-process SessionRunQueue (the embedded default): a SessionQueue that refuses, with
 * SessionQueueFullError, a run whose session already has `maxQueuedPerSession` runs waiting.
 */
export function createMemoryRunQueue(options: { maxQueuedPerSession: number }): SessionRunQueue {
  const queue = new SessionQueue({ maxQueuedPerKey: options.maxQueuedPerSession });
  return {
    run(sessionId, task, signal) {
      if (!queue.admits(sessionId)) return Promise.reject(new SessionQueueFullError(sessionId));
      return queue.run(sessionId, task, signal);
    },
    stats: () => queue.stats(),
  };
}
