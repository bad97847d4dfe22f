import { ToolsiftError } from "../../shared/errors/index.js";

/** Why a run still going when a drain runs out of time is cancelled (the runner quotes it in the log). */
const SHUT_DOWN = new ToolsiftError(
  "CANCELLED",
  "The gateway is shutting down: send the request again once it is back.",
);

/**
 * Tracks accepted runs for a bounded drain: once draining, no new run is accepted; `drain` waits for the
 * accepted ones up to a bound, then aborts the signal every run received and returns.
 */
export class RunTracker {
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #abort = new AbortController();
  #draining = false;

  /** False once a drain started: new runs are refused (503). */
  get accepting(): boolean {
    return !this.#draining;
  }

  /** Aborted when a drain runs out of time: passed to every run. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Number of accepted runs not yet settled. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Counts `work` as in flight until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.#inFlight.add(settled);
    void settled.then(() => this.#inFlight.delete(settled));
    return work;
  }

  /** Stops accepting runs and waits for in-flight runs at most `timeoutMs`; then aborts the rest. */
  async drain(timeoutMs: number): Promise<void> {
    this.#draining = true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), Math.max(0, timeoutMs));
    });
    try {
      const outcome = await Promise.race([this.#settledAll(), timedOut]);
      if (outcome === "timeout") this.#abort.abort(SHUT_DOWN);
    } finally {
      clearTimeout(timer);
    }
  }

  async #settledAll(): Promise<"settled"> {
    // Runs accepted while waiting (admitted just before the drain began) are waited for too.
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
    return "settled";
  }
}
