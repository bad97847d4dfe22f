import { randomBytes } from "node:crypto";
import {
  CONSOLE_IDLE_MS,
  CONSOLE_MAX_AGE_MS,
  MAX_CONSOLE_SESSIONS,
  MAX_CONSOLE_SESSIONS_PER_KEY,
  MAX_PENDING_LOGINS,
  PENDING_LOGIN_MS,
} from "./limits.js";
import type { ConsoleSessionRecord, ConsoleSessionStore } from "./types.js";

type Held = { record: ConsoleSessionRecord; createdAt: number; lastSeen: number };

/** The console session store of one process, with the bounds and expiry of `ConsoleSessionStore`. */
export type MemoryConsoleSessionStore = ConsoleSessionStore & {
  /** Sessions held now (waiting for a login, and signed in), expired ones not yet dropped included. */
  size(): { pending: number; signedIn: number };
};

/**
 * Console sessions in this process's memory (the embedded default): a browser reaching another process signs
 * in again there. `now` is the clock (tests move it). Every bound and expiry of `ConsoleSessionStore` holds;
 * the maps' insertion order is the age order the bounds drop by (a session found is moved to the end).
 */
export function createMemoryConsoleSessionStore(now: () => number = Date.now): MemoryConsoleSessionStore {
  const pending = new Map<string, Held>();
  const signedIn = new Map<string, Held>();

  const dropOldest = (from: Map<string, Held>, bound: number): void => {
    while (from.size >= bound) {
      const oldest = from.keys().next().value;
      if (oldest === undefined) break;
      from.delete(oldest);
    }
  };

  return {
    async open(keyId) {
      const at = now();
      const held: Held = {
        record: { id: randomConsoleToken(), csrf: randomConsoleToken(), keyId },
        createdAt: at,
        lastSeen: at,
      };
      if (keyId === undefined) {
        dropOldest(pending, MAX_PENDING_LOGINS);
        pending.set(held.record.id, held);
        return held.record;
      }
      const own = [...signedIn.values()].filter((other) => other.record.keyId === keyId);
      // Least recently used first (the map's order): drop the key's oldest until one more fits.
      for (const other of own.slice(0, Math.max(0, own.length - MAX_CONSOLE_SESSIONS_PER_KEY + 1))) {
        signedIn.delete(other.record.id);
      }
      dropOldest(signedIn, MAX_CONSOLE_SESSIONS);
      signedIn.set(held.record.id, held);
      return held.record;
    },

    async find(id) {
      if (id === undefined) return undefined;
      const at = now();
      const waiting = pending.get(id);
      if (waiting !== undefined) {
        if (at - waiting.createdAt <= PENDING_LOGIN_MS) return waiting.record;
        pending.delete(id);
        return undefined;
      }
      const held = signedIn.get(id);
      if (held === undefined) return undefined;
      signedIn.delete(id);
      if (at - held.lastSeen > CONSOLE_IDLE_MS || at - held.createdAt > CONSOLE_MAX_AGE_MS) return undefined;
      held.lastSeen = at;
      // Most recently used last, so the bound drops the least recently used first.
      signedIn.set(id, held);
      return held.record;
    },

    async isSignedIn(id) {
      const held = signedIn.get(id);
      if (held === undefined) return false;
      const at = now();
      return at - held.lastSeen <= CONSOLE_IDLE_MS && at - held.createdAt <= CONSOLE_MAX_AGE_MS;
    },

    async close(id) {
      pending.delete(id);
      signedIn.delete(id);
    },

    size: () => ({ pending: pending.size, signedIn: signedIn.size }),
  };
}

/** 32 random bytes as base64url: an unguessable console session id or CSRF token. */
export function randomConsoleToken(): string {
  return randomBytes(32).toString("base64url");
}
