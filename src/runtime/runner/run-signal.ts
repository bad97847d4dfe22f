import { ToolsiftError } from "../../shared/errors/index.js";

/** A source whose abort is told with a reason of the caller's choosing rather than the source's own. */
export type RunSignalSource = { signal: AbortSignal; reason: unknown };

/** Options of `createRunSignal`. */
export type RunSignalOptions = {
  /** Signals that abort this one (a caller's, a drain's); absent entries are skipped. Default: none. */
  sources?: ReadonlyArray<AbortSignal | RunSignalSource | undefined>;
  /** Aborts this signal after so many ms, with a `TIMEOUT` ToolsiftError. Default: no timer. */
  timeoutMs?: number;
  /** The message of that `TIMEOUT` error. Default: "The run exceeded its timeout of N ms." */
  timeoutMessage?: string;
};

/** A signal owned by one run (or one request), released when it ends. */
export interface RunSignal {
  readonly signal: AbortSignal;
  /** True when the timer, not a source, aborted the signal. */
  readonly timedOut: boolean;
  /** Aborts the signal from its owner (a stream's reader that stopped) with `reason`; no-op once aborted. */
  abort(reason: unknown): void;
  /**
   * Aborts the signal after `ms` with a `TIMEOUT` ToolsiftError of `message` (default "The run exceeded its
   * timeout of N ms.") and sets `timedOut`; replaces a timer armed before. No-op once aborted. Returns what
   * clears this timer alone; `release()` clears it too.
   */
  armTimeout(ms: number, message?: string): () => void;
  /**
   * Ends the link: removes its listeners from the sources and clears the timer. The signal is left as it is
   * (a run that ended normally has nothing left to stop); once unreferenced it is garbage. Idempotent.
   */
  release(): void;
}

/**
 * A fresh `AbortController` of one run, aborted when a source aborts (with the source's reason) or when
 * `timeoutMs` passes. Unlike `AbortSignal.any` and `AbortSignal.timeout`, nothing of it outlives `release()`:
 * a long-lived source (the gateway's drain signal) keeps no reference to it, and the timer is cleared, so the
 * signal, and every listener a client library added to it and never removed, is garbage once the run is.
 */
export function createRunSignal(options: RunSignalOptions = {}): RunSignal {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const links = (options.sources ?? []).flatMap((source) => {
    if (source === undefined) return [];
    const { signal, reason } = "signal" in source ? source : { signal: source, reason: undefined };
    const link = { signal, reason: () => reason ?? signal.reason, onAbort: () => {} };
    link.onAbort = () => {
      detach();
      controller.abort(link.reason());
    };
    return [link];
  });
  const detach = () => {
    for (const link of links) link.signal.removeEventListener("abort", link.onAbort);
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  const armTimeout = (timeoutMs: number, message?: string) => {
    if (controller.signal.aborted) return () => {};
    if (timer !== undefined) clearTimeout(timer);
    const armed = setTimeout(() => {
      timedOut = true;
      detach();
      controller.abort(
        new ToolsiftError("TIMEOUT", message ?? `The run exceeded its timeout of ${timeoutMs} ms.`),
      );
    }, timeoutMs);
    // A pending run keeps the process alive through its own work; the timer alone must not.
    armed.unref();
    timer = armed;
    return () => {
      if (timer !== armed) return;
      clearTimeout(armed);
      timer = undefined;
    };
  };

  const alreadyAborted = links.find((link) => link.signal.aborted);
  if (alreadyAborted) controller.abort(alreadyAborted.reason());
  else {
    for (const link of links) link.signal.addEventListener("abort", link.onAbort, { once: true });
    if (options.timeoutMs !== undefined) armTimeout(options.timeoutMs, options.timeoutMessage);
  }

  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    abort: (reason) => {
      detach();
      controller.abort(reason);
    },
    armTimeout,
    release: detach,
  };
}
