import { describe, expect, it } from "vitest";
import { MAX_CONSOLE_SESSIONS, MAX_CONSOLE_SESSIONS_PER_KEY, MAX_PENDING_LOGINS } from "./limits.js";
import type { ConsoleSessionStore } from "./types.js";

/** A console session store under test, and how many sessions of each kind it holds. */
export type ConsoleStoreUnderTest = {
  store: ConsoleSessionStore;
  size(): Promise<{ pending: number; signedIn: number }>;
};

/**
 * The behaviour every `ConsoleSessionStore` keeps, run against each implementation (`make` gives a fresh, empty
 * store per test): random ids, what `find` answers, both bounds apart, the per-key bound, `close`. Expiry
 * depends on each store's clock and is tested beside each.
 */
export function describeConsoleSessionStore(name: string, make: () => Promise<ConsoleStoreUnderTest>): void {
  describe(`${name}: the ConsoleSessionStore contract`, () => {
    it("gives random ids and CSRF tokens; find answers the session with its key, nothing for unknown ids", async () => {
      const { store } = await make();
      const one = await store.open("alice");
      const two = await store.open("alice");
      const waiting = await store.open();
      expect(one.id).not.toBe(two.id);
      expect(one.csrf).not.toBe(one.id);
      expect(one.csrf).not.toBe(two.csrf);
      for (const value of [one.id, one.csrf, waiting.id, waiting.csrf])
        expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/u);
      expect(await store.find(one.id)).toEqual({ id: one.id, csrf: one.csrf, keyId: "alice" });
      expect(await store.find(waiting.id)).toEqual({ id: waiting.id, csrf: waiting.csrf, keyId: undefined });
      expect(await store.find(undefined)).toBeUndefined();
      expect(await store.find("no-such-session")).toBeUndefined();
      expect(await store.find(one.csrf)).toBeUndefined();
    });

    it("bounds both kinds apart: opening pages never signs anyone out; the least recently used goes first", async () => {
      const { store, size } = await make();
      const first = await store.open("key0");
      const second = await store.open("key1");
      for (let index = 0; index < MAX_PENDING_LOGINS * 2; index += 1) await store.open();
      expect(await size()).toEqual({ pending: MAX_PENDING_LOGINS, signedIn: 2 });
      expect((await store.find(first.id))?.keyId).toBe("key0");
      for (let index = 2; index < MAX_CONSOLE_SESSIONS + 1; index += 1) await store.open(`key${index}`);
      expect((await size()).signedIn).toBe(MAX_CONSOLE_SESSIONS);
      expect(await store.find(second.id)).toBeUndefined(); // used least recently: dropped
      expect((await store.find(first.id))?.keyId).toBe("key0");
    });

    it("drops the oldest page waiting for a login past MAX_PENDING_LOGINS", async () => {
      const { store } = await make();
      const oldest = await store.open();
      const next = await store.open();
      for (let index = 2; index < MAX_PENDING_LOGINS + 1; index += 1) await store.open();
      expect(await store.find(oldest.id)).toBeUndefined();
      expect((await store.find(next.id))?.id).toBe(next.id);
    });

    it("one key holds at most MAX_CONSOLE_SESSIONS_PER_KEY: signing in again and again drops only its own", async () => {
      const { store, size } = await make();
      const bob = await store.open("bob");
      const alices = [];
      for (let index = 0; index < MAX_CONSOLE_SESSIONS_PER_KEY * 3; index += 1)
        alices.push(await store.open("alice"));
      expect((await size()).signedIn).toBe(MAX_CONSOLE_SESSIONS_PER_KEY + 1);
      expect((await store.find(bob.id))?.keyId).toBe("bob");
      expect(await store.find(alices[0]?.id)).toBeUndefined();
      const newest = alices.at(-1);
      expect((await store.find(newest?.id))?.id).toBe(newest?.id);
    });

    it("isSignedIn: a live signed-in session only, and asking is not use", async () => {
      const { store } = await make();
      const session = await store.open("alice");
      const waiting = await store.open();
      expect(await store.isSignedIn(session.id)).toBe(true);
      expect(await store.isSignedIn(waiting.id)).toBe(false);
      expect(await store.isSignedIn("no-such-session")).toBe(false);
      // Asking does not make it the most recently used: the key's bound still drops it first.
      for (let index = 1; index < MAX_CONSOLE_SESSIONS_PER_KEY; index += 1) {
        await store.open("alice");
        expect(await store.isSignedIn(session.id)).toBe(true);
      }
      await store.open("alice");
      expect(await store.isSignedIn(session.id)).toBe(false);
      await store.close(waiting.id);
    });

    it("close ends a session, of either kind", async () => {
      const { store } = await make();
      const session = await store.open("alice");
      const waiting = await store.open();
      await store.close(session.id);
      await store.close(waiting.id);
      await store.close("never-opened");
      expect(await store.find(session.id)).toBeUndefined();
      expect(await store.find(waiting.id)).toBeUndefined();
    });
  });
}
