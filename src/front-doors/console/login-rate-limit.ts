import { clientLimitKey } from "./client-limit-key.js";
import { createWindowedCounts } from "./windowed-counts.js";

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
 * limit. Per process: each gateway of a fleet counts its own. The address is the client's as the gateway reads
 * it (`gateway.trustedProxies`: behind a trusted proxy, the address it forwards), an IPv6 one by its /64
 * (`clientLimitKey`).
 */
export function createLoginRateLimit(options: {
  now: () => number;
  log: (line: string) => void;
}): LoginRateLimit {
  const { now, log } = options;
  const addresses = createWindowedCounts({
    windowMs: LOGIN_WINDOW_MS,
    maxKeys: MAX_TRACKED_LOGIN_ADDRESSES,
  });
  // Every address together: one key.
  const all = createWindowedCounts({ windowMs: LOGIN_WINDOW_MS, maxKeys: 1 });

  return {
    allow(clientAddress) {
      const at = now();
      const own = addresses.peek(clientLimitKey(clientAddress), at);
      if (own !== undefined && own.count >= MAX_FAILED_LOGINS_PER_ADDRESS) {
        return { allowed: false, retryAfterMs: own.retryAfterMs, reason: "address" };
      }
      const every = all.peek("", at);
      if (every !== undefined && every.count >= MAX_FAILED_LOGINS) {
        return { allowed: false, retryAfterMs: every.retryAfterMs, reason: "all" };
      }
      return { allowed: true };
    },

    fail(clientAddress) {
      const at = now();
      const address = clientLimitKey(clientAddress);
      const every = all.add("", at);
      if (every.count === MAX_FAILED_LOGINS) {
        log(
          `console: ${MAX_FAILED_LOGINS} failed logins within ${LOGIN_WINDOW_MS / 1000} s from all addresses: every login is refused for ${Math.ceil(every.retryAfterMs / 1000)} s`,
        );
      }
      const own = addresses.add(address, at);
      if (own.count === MAX_FAILED_LOGINS_PER_ADDRESS) {
        log(
          `console: ${MAX_FAILED_LOGINS_PER_ADDRESS} failed logins within ${LOGIN_WINDOW_MS / 1000} s from ${address}: its logins are refused for ${Math.ceil(own.retryAfterMs / 1000)} s`,
        );
      }
    },

    tracked: () => addresses.size(),
  };
}
