import { MAX_TRACKED_CAUSES, REPEATED_ERROR_REPORT_MS } from "./limits.js";

/** A log for errors that can repeat per request: each cause once, then a count. */
export type RepeatLimitedLog = {
  /** Logs `line` if `cause` was not logged yet; else counts it, for the next report. */
  (cause: string, line: string): void;
  /** Reports the counts not reported yet and stops the timer. */
  close(): void;
};

/**
 * Wraps `log` so that an error repeated per request (descriptors exhausted, a broken dependency) is one line,
 * not one line (and stack) per request: the first occurrence of each `cause` is logged at once; later ones
 * are counted and reported as `<line> (repeated N more times)` at most once per
 * `reportEveryMs` (default REPEATED_ERROR_REPORT_MS). A cause quiet for a whole period is forgotten, so its
 * next occurrence is logged in full again.
 */
export function createRepeatLimitedLog(
  log: (line: string) => void,
  options: { reportEveryMs?: number } = {},
): RepeatLimitedLog {
  const seen = new Map<string, { line: string; repeats: number }>();
  const report = () => {
    for (const [cause, entry] of seen) {
      if (entry.repeats === 0) {
        seen.delete(cause);
        continue;
      }
      log(`${entry.line} (repeated ${entry.repeats} more times)`);
      entry.repeats = 0;
    }
  };
  const timer = setInterval(report, options.reportEveryMs ?? REPEATED_ERROR_REPORT_MS);
  timer.unref();
  const limited = (cause: string, line: string) => {
    const entry = seen.get(cause);
    if (entry !== undefined) {
      entry.repeats += 1;
      return;
    }
    // Past the bound (distinct causes within one period), a cause is logged but not remembered.
    if (seen.size < MAX_TRACKED_CAUSES) seen.set(cause, { line, repeats: 0 });
    log(line);
  };
  limited.close = () => {
    clearInterval(timer);
    report();
  };
  return limited;
}
