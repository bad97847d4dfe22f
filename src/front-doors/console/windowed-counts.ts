/** One key's live window: how many were counted in it and how long until it ends. */
export type WindowCount = { count: number; retryAfterMs: number };

/**
 * Counts per key (a client address) in fixed windows of `windowMs` from each window's first count, for the
 * console's limits (failed logins, page opens). At most `maxKeys` keys are remembered: a key starting a new
 * window when the map is full forgets the key whose window started first, so memory stays bounded however
 * many keys come.
 */
export type WindowedCounts = {
  /** The live window of `key` at `at`, or undefined when it has none. */
  peek(key: string, at: number): WindowCount | undefined;
  /** Counts one for `key` at `at` (a new window from `at` when it has no live one); its window after. */
  add(key: string, at: number): WindowCount;
  /** Keys remembered now (tests). */
  size(): number;
};

type Window = { start: number; count: number };

export function createWindowedCounts(options: { windowMs: number; maxKeys: number }): WindowedCounts {
  const { windowMs, maxKeys } = options;
  const windows = new Map<string, Window>();
  const live = (window: Window | undefined, at: number): window is Window =>
    window !== undefined && at - window.start < windowMs;
  const counted = (window: Window, at: number): WindowCount => ({
    count: window.count,
    retryAfterMs: window.start + windowMs - at,
  });

  return {
    peek(key, at) {
      const window = windows.get(key);
      return live(window, at) ? counted(window, at) : undefined;
    },

    add(key, at) {
      let window = windows.get(key);
      if (!live(window, at)) {
        windows.delete(key);
        // Oldest window first (the map's order): forget it when the map is full.
        if (windows.size >= maxKeys) {
          const oldest = windows.keys().next().value;
          if (oldest !== undefined) windows.delete(oldest);
        }
        window = { start: at, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      return counted(window, at);
    },

    size: () => windows.size,
  };
}
