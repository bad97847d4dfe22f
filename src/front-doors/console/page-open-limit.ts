import { clientLimitKey } from "./client-limit-key.js";
import { createWindowedCounts } from "./windowed-counts.js";

/**
 * Console sessions one client address may open in a window (a page's first `GET /console/api/session`
 * without a cookie); past it that address's opens are refused until the window ends. A few browsers behind one
 * address reloading now and then stay far below it; a loop does not.
 */
export const MAX_PAGE_OPENS_PER_ADDRESS = 30;

/** The window page opens are counted in: one minute, from the first open. */
export const PAGE_OPEN_WINDOW_MS = 60 * 1000;

/** Client addresses whose opens one process counts at once; past it the oldest window is forgotten. */
export const MAX_TRACKED_PAGE_OPEN_ADDRESSES = 1024;

/** Whether a client may open a console session now; when not, how long until it may. */
export type PageOpenAllowance = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Counts the console sessions each client address opens (one process's). */
export type PageOpenLimit = {
  /** Whether `address` may open one now; an allowed open is counted, a refused one is not. */
  open(address: string): PageOpenAllowance;
  /** Addresses counted now (tests). */
  tracked(): number;
};

/**
 * Fixed windows of `PAGE_OPEN_WINDOW_MS` from a window's first open: at most `MAX_PAGE_OPENS_PER_ADDRESS`
 * opens per client address, so one address opening pages in a loop cannot push other browsers' waiting pages
 * out of the session store's bound. Per address only (a limit in all would let one address hold off every
 * browser). An IPv6 client is counted by its /64 (`clientLimitKey`). `log` gets one line when an address
 * reaches the limit in a window. Per process.
 */
export function createPageOpenLimit(options: {
  now: () => number;
  log: (line: string) => void;
}): PageOpenLimit {
  const { now, log } = options;
  const addresses = createWindowedCounts({
    windowMs: PAGE_OPEN_WINDOW_MS,
    maxKeys: MAX_TRACKED_PAGE_OPEN_ADDRESSES,
  });
  return {
    open(clientAddress) {
      const at = now();
      const address = clientLimitKey(clientAddress);
      const own = addresses.peek(address, at);
      if (own !== undefined && own.count >= MAX_PAGE_OPENS_PER_ADDRESS) {
        return { allowed: false, retryAfterMs: own.retryAfterMs };
      }
      const counted = addresses.add(address, at);
      if (counted.count === MAX_PAGE_OPENS_PER_ADDRESS) {
        log(
          `console: ${MAX_PAGE_OPENS_PER_ADDRESS} console sessions opened within ${PAGE_OPEN_WINDOW_MS / 1000} s from ${address}: its new pages are refused for ${Math.ceil(counted.retryAfterMs / 1000)} s`,
        );
      }
      return { allowed: true };
    },
    tracked: () => addresses.size(),
  };
}
