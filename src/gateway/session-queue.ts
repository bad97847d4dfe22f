/** How many runs are executing and how many wait behind another run of their session. */
export type QueueStats = { running: number; queued: number };

/**
 * Serialises tasks per key: a task starts only after every earlier task of its key settled (fulfilled or
 * rejected); tasks of different keys run concurrently. Idle keys hold no memory.
 */
export class SessionQueue {
  readonly #tails = new Map<string, Promise<void>>();
  #running = 0;
  #queued = 0;

  /** Runs `task` after the earlier tasks of `key`; resolves or rejects as the task does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    this.#queued += 1;
    const result = previous.then(async () => {
      this.#queued -= 1;
      this.#running += 1;
      try {
        return await task();
      } finally {
        this.#running -= 1;
      }
    });
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
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
