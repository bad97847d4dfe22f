/** Tells a store's outages once each: one line when it stops taking writes, one when it takes them again. */
export interface StorageFaultReporter {
  /** True while a fault is being reported (between `fault` and `writable`). */
  readonly faulted: boolean;
  /** The store cannot take writes (`reason` names where, why and the fix): told once until `writable`. */
  fault(reason: string): void;
  /** The store takes writes again: told once after a `fault`, else nothing. */
  writable(): void;
}

/**
 * A reporter telling `onFault` (when given) `session storage unavailable: <reason>` at an outage's start and
 * `session storage available again: <recovered>` at its end. A throwing `onFault` changes nothing.
 */
export function createStorageFaultReporter(
  onFault: ((line: string) => void) | undefined,
  recovered: string,
): StorageFaultReporter {
  let faulted = false;
  const tell = (line: string): void => {
    try {
      onFault?.(line);
    } catch {
      // A failing reporter must not change what the store answers.
    }
  };
  return {
    get faulted() {
      return faulted;
    },
    fault(reason) {
      if (faulted) return;
      faulted = true;
      tell(`session storage unavailable: ${reason}`);
    },
    writable() {
      if (!faulted) return;
      faulted = false;
      tell(`session storage available again: ${recovered}`);
    },
  };
}
