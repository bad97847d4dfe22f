import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Caller } from "../../runtime/http-guard/index.js";
import {
  CONSOLE_IDLE_MS,
  CONSOLE_MAX_AGE_MS,
  MAX_CONSOLE_SESSIONS,
  MAX_CONSOLE_SESSIONS_PER_KEY,
  MAX_PENDING_LOGINS,
  PENDING_LOGIN_MS,
} from "./limits.js";

/** One browser's console session: its CSRF token, and the key it signed in with (none while it waits for a login). */
export type ConsoleSession = {
  readonly id: string;
  readonly csrf: string;
  readonly caller: Caller | undefined;
  readonly createdAt: number;
  lastSeen: number;
};

/** What `ConsoleSessions` needs of the clock (tests move it). */
export type Clock = () => number;

/**
 * The console's sessions, in this process's memory: a random id (the cookie) maps to a random CSRF token and,
 * once signed in, the key's caller; never the token. Bounded twice: pages waiting for a login (anyone can
 * open one) are kept apart from signed-in sessions (only a key's holder can make one), so opening pages never
 * signs anyone out, and each key holds at most `MAX_CONSOLE_SESSIONS_PER_KEY`, so no key's holder can sign the
 * others out by signing in again and again. Signed-in sessions end after `CONSOLE_IDLE_MS` unused or `CONSOLE_MAX_AGE_MS` in all.
 */
export class ConsoleSessions {
  readonly #pending = new Map<string, ConsoleSession>();
  readonly #signedIn = new Map<string, ConsoleSession>();
  readonly #now: Clock;

  constructor(now: Clock = Date.now) {
    this.#now = now;
  }

  /** A new session; with `caller`, signed in (the trusted local caller, or a login). */
  open(caller?: Caller): ConsoleSession {
    const now = this.#now();
    const session: ConsoleSession = {
      id: randomToken(),
      csrf: randomToken(),
      caller,
      createdAt: now,
      lastSeen: now,
    };
    if (caller !== undefined) {
      const own = [...this.#signedIn.values()].filter((held) => held.caller?.keyId === caller.keyId);
      // Least recently used first (the map's order): drop the key's oldest until one more fits.
      for (const held of own.slice(0, Math.max(0, own.length - MAX_CONSOLE_SESSIONS_PER_KEY + 1))) {
        this.#signedIn.delete(held.id);
      }
    }
    const into = caller === undefined ? this.#pending : this.#signedIn;
    const bound = caller === undefined ? MAX_PENDING_LOGINS : MAX_CONSOLE_SESSIONS;
    while (into.size >= bound) {
      const oldest = into.keys().next().value;
      if (oldest === undefined) break;
      into.delete(oldest);
    }
    into.set(session.id, session);
    return session;
  }

  /** The live session a cookie names, marked used; undefined when unknown or expired. */
  find(id: string | undefined): ConsoleSession | undefined {
    if (id === undefined) return undefined;
    const now = this.#now();
    const pending = this.#pending.get(id);
    if (pending !== undefined) {
      if (now - pending.createdAt <= PENDING_LOGIN_MS) return pending;
      this.#pending.delete(id);
      return undefined;
    }
    const session = this.#signedIn.get(id);
    if (session === undefined) return undefined;
    if (now - session.lastSeen > CONSOLE_IDLE_MS || now - session.createdAt > CONSOLE_MAX_AGE_MS) {
      this.#signedIn.delete(id);
      return undefined;
    }
    session.lastSeen = now;
    // Most recently used last, so the bound drops the least recently used first.
    this.#signedIn.delete(id);
    this.#signedIn.set(id, session);
    return session;
  }

  /** True while a signed-in session is held and unexpired; unlike `find`, asking is not use (a live tail asks). */
  isSignedIn(id: string): boolean {
    const session = this.#signedIn.get(id);
    if (session === undefined) return false;
    const now = this.#now();
    return now - session.lastSeen <= CONSOLE_IDLE_MS && now - session.createdAt <= CONSOLE_MAX_AGE_MS;
  }

  /** Ends a session (logout, or the pending one a login replaces). */
  close(id: string): void {
    this.#pending.delete(id);
    this.#signedIn.delete(id);
  }

  /** Sessions held now (pending and signed in). */
  size(): { pending: number; signedIn: number } {
    return { pending: this.#pending.size, signedIn: this.#signedIn.size };
  }
}

/** True when `sent` is the session's CSRF token, compared in constant time. */
export function csrfMatches(session: ConsoleSession, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const expected = Buffer.from(session.csrf, "utf8");
  const given = Buffer.from(sent, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** 32 random bytes as base64url: an unguessable session id or CSRF token. */
function randomToken(): string {
  return randomBytes(32).toString("base64url");
}
