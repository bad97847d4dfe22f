/** Why withTimeout gave up waiting. */
export class TimedOut extends Error {
  constructor(readonly timeoutMs: number) {
    super(`did not finish within ${timeoutMs} ms`);
    this.name = "TimedOut";
  }
}

/**
 * Runs `work` (a synchronous throw becomes a rejection) and settles with it, or rejects with TimedOut
 * after `timeoutMs`. The work is not cancelled, only abandoned; its late outcome is ignored.
 */
export async function withTimeout<T>(work: () => T | Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(work), expired]);
  } finally {
    clearTimeout(timer);
  }
}
