/** Most ids a RecentIds remembers; the oldest are forgotten first. */
const DEFAULT_CAPACITY = 10_000;

/** A bounded set of ids: remembers the most recent `capacity` ids added, forgetting the oldest. */
export class RecentIds {
  readonly #ids = new Set<string>();
  readonly #capacity: number;

  constructor(capacity = DEFAULT_CAPACITY) {
    this.#capacity = capacity;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  add(id: string): void {
    this.#ids.delete(id);
    this.#ids.add(id);
    while (this.#ids.size > this.#capacity) {
      const oldest = this.#ids.values().next().value;
      if (oldest === undefined) break;
      this.#ids.delete(oldest);
    }
  }
}
