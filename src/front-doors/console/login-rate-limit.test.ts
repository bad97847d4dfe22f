import { describe, expect, it } from "vitest";
import {
  createLoginRateLimit,
  LOGIN_WINDOW_MS,
  MAX_FAILED_LOGINS,
  MAX_FAILED_LOGINS_PER_ADDRESS,
  MAX_TRACKED_LOGIN_ADDRESSES,
} from "./login-rate-limit.js";

function clocked() {
  let now = 5_000_000;
  const lines: string[] = [];
  const limit = createLoginRateLimit({ now: () => now, log: (line) => lines.push(line) });
  return { limit, lines, advance: (ms: number) => (now += ms) };
}

describe("createLoginRateLimit (a fake clock)", () => {
  it("limits an address past its failures until its window ends, logging once per window", () => {
    const { limit, lines, advance } = clocked();
    for (let index = 0; index < MAX_FAILED_LOGINS_PER_ADDRESS - 1; index += 1) limit.fail("10.0.0.1");
    expect(limit.allow("10.0.0.1")).toEqual({ allowed: true });
    advance(20_000);
    limit.fail("10.0.0.1");
    expect(limit.allow("10.0.0.1")).toEqual({
      allowed: false,
      retryAfterMs: LOGIN_WINDOW_MS - 20_000,
      reason: "address",
    });
    expect(limit.allow("10.0.0.2")).toEqual({ allowed: true });
    expect(lines).toEqual([
      `console: ${MAX_FAILED_LOGINS_PER_ADDRESS} failed logins within 60 s from 10.0.0.1: its logins are refused for 40 s`,
    ]);
    // The window runs from its first failure: 40 s more.
    advance(LOGIN_WINDOW_MS - 20_000 - 1);
    expect(limit.allow("10.0.0.1")).toEqual({ allowed: false, retryAfterMs: 1, reason: "address" });
    advance(1);
    expect(limit.allow("10.0.0.1")).toEqual({ allowed: true });
    // A new window counts afresh, and logs again when it reaches the limit.
    limit.fail("10.0.0.1");
    expect(limit.allow("10.0.0.1")).toEqual({ allowed: true });
    for (let index = 1; index < MAX_FAILED_LOGINS_PER_ADDRESS; index += 1) limit.fail("10.0.0.1");
    expect(limit.allow("10.0.0.1").allowed).toBe(false);
    expect(lines).toHaveLength(2);
  });

  it("limits every address once MAX_FAILED_LOGINS failed in all within a window", () => {
    const { limit, lines, advance } = clocked();
    for (let index = 0; index < MAX_FAILED_LOGINS - 1; index += 1)
      limit.fail(`10.1.${index >> 8}.${index & 255}`);
    expect(limit.allow("192.0.2.1")).toEqual({ allowed: true });
    advance(1_000);
    limit.fail("10.2.0.1");
    expect(limit.allow("192.0.2.1")).toEqual({
      allowed: false,
      retryAfterMs: LOGIN_WINDOW_MS - 1_000,
      reason: "all",
    });
    expect(lines).toEqual([
      `console: ${MAX_FAILED_LOGINS} failed logins within 60 s from all addresses: every login is refused for 59 s`,
    ]);
    limit.fail("10.2.0.2");
    expect(lines).toHaveLength(1);
    advance(LOGIN_WINDOW_MS - 1_000);
    expect(limit.allow("192.0.2.1")).toEqual({ allowed: true });
  });

  it("counts at most MAX_TRACKED_LOGIN_ADDRESSES addresses, forgetting the oldest window first", () => {
    const { limit, advance } = clocked();
    for (let index = 0; index < MAX_FAILED_LOGINS_PER_ADDRESS; index += 1) limit.fail("198.51.100.7");
    for (let index = 0; index < MAX_TRACKED_LOGIN_ADDRESSES * 3; index += 1) {
      // One failure a minute apart from the first: the window in all never reaches its limit.
      if (index % (MAX_FAILED_LOGINS - 1) === 0) advance(LOGIN_WINDOW_MS);
      limit.fail(`10.3.${index >> 8}.${index & 255}`);
      expect(limit.tracked()).toBeLessThanOrEqual(MAX_TRACKED_LOGIN_ADDRESSES);
    }
    expect(limit.tracked()).toBe(MAX_TRACKED_LOGIN_ADDRESSES);
  });

  it("counts an IPv6 client's failures by its /64: moving to another address of it is refused too", () => {
    const { limit, lines } = clocked();
    for (let index = 0; index < MAX_FAILED_LOGINS_PER_ADDRESS; index += 1) {
      const address = `2001:db8:aa:bb::${(index + 1).toString(16)}`;
      expect(limit.allow(address).allowed).toBe(true);
      limit.fail(address);
    }
    expect(limit.allow("2001:db8:aa:bb:1234::5")).toMatchObject({ allowed: false, reason: "address" });
    expect(limit.allow("2001:db8:aa:bc::1")).toEqual({ allowed: true });
    expect(limit.tracked()).toBe(1);
    expect(lines.some((line) => line.includes("from 2001:db8:aa:bb::/64:"))).toBe(true);
  });
});
