import { randomBytes } from "node:crypto";
import { MAX_TRACKED_RUNS } from "./limits.js";
import type { FinalOutcome } from "./types.js";

interface TrackedRun {
  readonly outcome: Promise<FinalOutcome>;
  settled: boolean;
}

/**
 * The cells that outlived their yield, by runId, until `wait` hands out their final outcome (then the runId
 * is forgotten: a second wait for it is an unknown run). Bounded: past MAX_TRACKED_RUNS the oldest finished
 * run is dropped. RunIds are random (`cell_` + 24 hex characters), so they cannot be guessed.
 */
export class RunRegistry {
  readonly #runs = new Map<string, TrackedRun>();

  /** Tracks a running cell and returns its new runId. */
  add(outcome: Promise<FinalOutcome>): string {
    const runId = `cell_${randomBytes(12).toString("hex")}`;
    const run: TrackedRun = { outcome, settled: false };
    void outcome.then(() => {
      run.settled = true;
    });
    this.#runs.set(runId, run);
    if (this.#runs.size > MAX_TRACKED_RUNS) {
      for (const [id, tracked] of this.#runs) {
        if (tracked.settled) {
          this.#runs.delete(id);
          break;
        }
      }
    }
    return runId;
  }

  /** The run's final outcome, or undefined for an unknown runId. */
  get(runId: string): Promise<FinalOutcome> | undefined {
    return this.#runs.get(runId)?.outcome;
  }

  /** Forgets a run whose outcome was handed out. */
  delete(runId: string): void {
    this.#runs.delete(runId);
  }

  /** Forgets every run. */
  clear(): void {
    this.#runs.clear();
  }
}
