/** Failed logins one client address may make in a window; past it its logins are refused until the window ends. */
export const MAX_FAILED_LOGINS_PER_ADDRESS = 10;

/** Failed logins from every address together in a window (a guess spread over many addresses). */
export const MAX_FAILED_LOGINS = 100;

/** The window failed logins are counted in: one minute, from the first failure. */
export const LOGIN_WINDOW_MS = 60 * 1000;

/**
 * Client addresses whose failures one process counts at once; past it the address whose window started first
 * is forgotten (so memory stays bounded; a flood of addresses reaches `MAX_FAILED_LOGINS` long before this).
 */
export const MAX_TRACKED_LOGIN_ADDRESSES = 1024;

type Window = { start: number; failures: number };

/** Whether a login may be checked now: when not, why and how long until it may. */
export type LoginAllowance =
  | { allowed: true }
  | { allowed: false; retryAfterMs: number; reason: "address" | "all" };

/** Counts failed console logins of one process and says when a client must wait. */
export type LoginRateLimit = {
  /** Whether a login from `address` may be checked now (a refused login is not counted again). */
  allow(address: string): LoginAllowance;
  /** Counts a failed login from `address` (a token that is no key's). */
  fail(address: string): void;
  /** Addresses counted now (tests). */
  tracked(): number;
};

/**
 * Fixed windows of `LOGIN_WINDOW_MS` from a window's first failure: at most `MAX_FAILED_LOGINS_PER_ADDRESS`
 * failures per client address and `MAX_FAILED_LOGINS` in all; past either, logins (right tokens too, so
 * guessing cannot go on) are refused until the window ends. `log` gets one line when a window reaches its
 * limit. Per process: each gateway of a fleet counts its own.
 */
export function createLoginRateLimit(options: {
  now: () => number;
  log: (line: string) => void;
}): LoginRateLimit {
  const { now, log } = options;
  const addresses = new Map<string, Window>();
  let all: Window | undefined;
  const live = (window: Window | undefined, at: number): window is Window =>
    window !== undefined && at - window.start < LOGIN_WINDOW_MS;
  const waitOf = (window: Window, at: number): number => window.start + LOGIN_WINDOW_MS - at;

  return {
    allow(address) {
      const at = now();
      const own = addresses.get(address);
      if (live(own, at) && own.failures >= MAX_FAILED_LOGINS_PER_ADDRESS) {
        return { allowed: false, retryAfterMs: waitOf(own, at), reason: "address" };
      }
      if (live(all, at) && all.failures >= MAX_FAILED_LOGINS) {
        return { allowed: false, retryAfterMs: waitOf(all, at), reason: "all" };
      }
      return { allowed: true };
    },

    fail(address) {
      const at = now();
      if (!live(all, at)) all = { start: at, failures: 0 };
      all.failures += 1;
      if (all.failures === MAX_FAILED_LOGINS) {
        log(
          `console: ${MAX_FAILED_LOGINS} failed logins within ${LOGIN_WINDOW_MS / 1000} s from all addresses: every login is refused for ${Math.ceil(waitOf(all, at) / 1000)} s`,
        );
      }
      let own = addresses.get(address);
      if (!live(own, at)) {
        addresses.delete(address);
        // Oldest window first (the map's order): forget it when the map is full.
        if (addresses.size >= MAX_TRACKED_LOGIN_ADDRESSES) {
          const oldest = addresses.keys().next().value;
          if (oldest !== undefined) addresses.delete(oldest);
        }
        own = { start: at, failures: 0 };
        addresses.set(address, own);
      }
      own.failures += 1;
      if (own.failures === MAX_FAILED_LOGINS_PER_ADDRESS) {
        log(
          `console: ${MAX_FAILED_LOGINS_PER_ADDRESS} failed logins within ${LOGIN_WINDOW_MS / 1000} s from ${address}: its logins are refused for ${Math.ceil(waitOf(own, at) / 1000)} s`,
        );
      }
    },

    tracked: () => addresses.size,
  };
}
