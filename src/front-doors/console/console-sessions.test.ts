import { describe, expect, it } from "vitest";
import { createMemoryConsoleSessionStore } from "../../runtime/state/index.js";
import { csrfMatches } from "./console-sessions.js";

// The stores' bounds and expiry are tested beside them (`src/runtime/state`, `src/runtime/state-postgres`).

describe("csrfMatches", () => {
  it("checks the session's CSRF token exactly", async () => {
    const store = createMemoryConsoleSessionStore();
    const one = await store.open("alice");
    const two = await store.open("alice");
    expect(csrfMatches(one, one.csrf)).toBe(true);
    expect(csrfMatches(one, two.csrf)).toBe(false);
    expect(csrfMatches(one, `${one.csrf}x`)).toBe(false);
    expect(csrfMatches(one, one.csrf.slice(1))).toBe(false);
    expect(csrfMatches(one, one.id)).toBe(false);
    expect(csrfMatches(one, "")).toBe(false);
    expect(csrfMatches(one, undefined)).toBe(false);
  });
});
