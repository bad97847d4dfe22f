/**
 * An unbounded queue between one producer (a run's events, pushed as they happen) and one reader (the
 * stream written to the client, at the client's pace). `end()` or `fail(error)` closes it: the reader gets
 * what was pushed before, then the end or the error. Memory is bounded by the run, not by the reader.
 */
export class EventChannel<T> implements AsyncIterator<T> {
  readonly #queued: T[] = [];
  #ended: { error?: unknown } | undefined;
  #wake: (() => void) | undefined;

  /** Adds `value` for the reader; ignored once the channel ended. */
  push(value: T): void {
    if (this.#ended) return;
    this.#queued.push(value);
    this.#wakeReader();
  }

  /** Ends the channel after what was pushed. */
  end(): void {
    this.#ended ??= {};
    this.#wakeReader();
  }

  /** Ends the channel with `error`, thrown to the reader after what was pushed. */
  fail(error: unknown): void {
    this.#ended ??= { error };
    this.#wakeReader();
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      if (this.#queued.length > 0) return { done: false, value: this.#queued.shift() as T };
      if (this.#ended) {
        if ("error" in this.#ended) throw this.#ended.error;
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
