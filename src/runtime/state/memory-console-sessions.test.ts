import { describe, expect, it } from "vitest";
import { describeConsoleSessionStore } from "./console-session-store.test-support.js";
import { CONSOLE_IDLE_MS, CONSOLE_MAX_AGE_MS, PENDING_LOGIN_MS } from "./limits.js";
import { createMemoryConsoleSessionStore } from "./memory-console-sessions.js";

function clocked() {
  let now = 1_000_000;
  const store = createMemoryConsoleSessionStore(() => now);
  return { store, advance: (ms: number) => (now += ms) };
}

describeConsoleSessionStore("createMemoryConsoleSessionStore", async () => {
  const store = createMemoryConsoleSessionStore();
  return { store, size: async () => store.size() };
});

describe("createMemoryConsoleSessionStore: expiry by its clock", () => {
  it("drops a signed-in session unused for CONSOLE_IDLE_MS, and any after CONSOLE_MAX_AGE_MS", async () => {
    const { store, advance } = clocked();
    const idle = await store.open("alice");
    advance(CONSOLE_IDLE_MS - 1);
    expect(await store.find(idle.id)).toEqual(idle);
    advance(CONSOLE_IDLE_MS + 1);
    expect(await store.find(idle.id)).toBeUndefined();
    expect(store.size().signedIn).toBe(0);
    const busy = await store.open("alice");
    for (let used = 0; used < CONSOLE_MAX_AGE_MS; used += CONSOLE_IDLE_MS / 2) {
      expect(await store.find(busy.id)).toEqual(busy);
      advance(CONSOLE_IDLE_MS / 2);
    }
    advance(1);
    expect(await store.find(busy.id)).toBeUndefined();
  });

  it("isSignedIn turns false when the session idles out, though asked all along", async () => {
    const { store, advance } = clocked();
    const session = await store.open("alice");
    for (let waited = 0; waited < CONSOLE_IDLE_MS; waited += CONSOLE_IDLE_MS / 4) {
      expect(await store.isSignedIn(session.id)).toBe(true);
      advance(CONSOLE_IDLE_MS / 4);
    }
    advance(1);
    expect(await store.isSignedIn(session.id)).toBe(false);
  });

  it("drops a page waiting for a login after PENDING_LOGIN_MS, however often it is read", async () => {
    const { store, advance } = clocked();
    const pending = await store.open();
    advance(PENDING_LOGIN_MS);
    expect(await store.find(pending.id)).toEqual(pending);
    advance(1);
    expect(await store.find(pending.id)).toBeUndefined();
    expect(store.size().pending).toBe(0);
  });
});
