import { describe, expect, it } from "vitest";
import {
  createPageOpenLimit,
  MAX_PAGE_OPENS_PER_ADDRESS,
  MAX_TRACKED_PAGE_OPEN_ADDRESSES,
  PAGE_OPEN_WINDOW_MS,
} from "./page-open-limit.js";

function clocked() {
  let now = 7_000_000;
  const lines: string[] = [];
  const limit = createPageOpenLimit({ now: () => now, log: (line) => lines.push(line) });
  return { limit, lines, advance: (ms: number) => (now += ms) };
}

describe("createPageOpenLimit (a fake clock)", () => {
  it("refuses an address past its opens until its window ends, logs once, leaves other addresses alone", () => {
    const { limit, lines, advance } = clocked();
    for (let open = 0; open < MAX_PAGE_OPENS_PER_ADDRESS - 1; open += 1) {
      expect(limit.open("203.0.113.7")).toEqual({ allowed: true });
    }
    advance(15_000);
    expect(limit.open("203.0.113.7")).toEqual({ allowed: true });
    expect(limit.open("203.0.113.7")).toEqual({ allowed: false, retryAfterMs: PAGE_OPEN_WINDOW_MS - 15_000 });
    // A refused open is not counted: the window still ends 60 s after its first open.
    for (let refused = 0; refused < 100; refused += 1) limit.open("203.0.113.7");
    expect(limit.open("203.0.113.8")).toEqual({ allowed: true });
    expect(lines).toEqual([
      `console: ${MAX_PAGE_OPENS_PER_ADDRESS} console sessions opened within 60 s from 203.0.113.7: its new pages are refused for 45 s`,
    ]);
    advance(PAGE_OPEN_WINDOW_MS - 15_000 - 1);
    expect(limit.open("203.0.113.7")).toEqual({ allowed: false, retryAfterMs: 1 });
    advance(1);
    expect(limit.open("203.0.113.7")).toEqual({ allowed: true });
  });

  it(`remembers at most ${MAX_TRACKED_PAGE_OPEN_ADDRESSES} addresses, forgetting the oldest window first`, () => {
    const { limit } = clocked();
    for (let open = 0; open < MAX_PAGE_OPENS_PER_ADDRESS; open += 1) limit.open("198.51.100.1");
    expect(limit.open("198.51.100.1").allowed).toBe(false);
    for (let index = 0; index < MAX_TRACKED_PAGE_OPEN_ADDRESSES * 3; index += 1) {
      limit.open(`10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`);
      expect(limit.tracked()).toBeLessThanOrEqual(MAX_TRACKED_PAGE_OPEN_ADDRESSES);
    }
    expect(limit.tracked()).toBe(MAX_TRACKED_PAGE_OPEN_ADDRESSES);
    // The limited address's window was the oldest: forgotten, it may open again.
    expect(limit.open("198.51.100.1")).toEqual({ allowed: true });
  });

  it("counts an IPv6 client by its /64: its many addresses share one window; another /64 has its own", () => {
    const { limit, lines } = clocked();
    for (let open = 0; open < MAX_PAGE_OPENS_PER_ADDRESS; open += 1) {
      expect(limit.open(`2001:db8:1:2::${(open + 1).toString(16)}`)).toEqual({ allowed: true });
    }
    expect(limit.open("2001:db8:1:2:ffff::9").allowed).toBe(false);
    expect(limit.open("2001:db8:1:3::1")).toEqual({ allowed: true });
    // An IPv4 client and its IPv4-mapped form are one address.
    expect(limit.open("203.0.113.7")).toEqual({ allowed: true });
    expect(limit.tracked()).toBe(3);
    expect(limit.open("::ffff:203.0.113.7")).toEqual({ allowed: true });
    expect(limit.tracked()).toBe(3);
    expect(lines).toEqual([
      `console: ${MAX_PAGE_OPENS_PER_ADDRESS} console sessions opened within 60 s from 2001:db8:1:2::/64: its new pages are refused for 60 s`,
    ]);
  });
});
