import { describe, expect, it } from "vitest";
import type { Caller } from "../../runtime/http-guard/index.js";
import { ConsoleSessions, csrfMatches } from "./console-sessions.js";
import {
  CONSOLE_IDLE_MS,
  CONSOLE_MAX_AGE_MS,
  MAX_CONSOLE_SESSIONS,
  MAX_CONSOLE_SESSIONS_PER_KEY,
  MAX_PENDING_LOGINS,
  PENDING_LOGIN_MS,
} from "./limits.js";

const ALICE: Caller = { keyId: "alice", scopes: ["sessions:read"], trusted: false };

function clocked() {
  let now = 1_000_000;
  return { sessions: new ConsoleSessions(() => now), advance: (ms: number) => (now += ms) };
}

describe("ConsoleSessions", () => {
  it("gives random ids and CSRF tokens, and checks the token exactly", () => {
    const { sessions } = clocked();
    const one = sessions.open(ALICE);
    const two = sessions.open(ALICE);
    expect(one.id).not.toBe(two.id);
    expect(one.csrf).not.toBe(one.id);
    expect(one.id).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    expect(csrfMatches(one, one.csrf)).toBe(true);
    expect(csrfMatches(one, two.csrf)).toBe(false);
    expect(csrfMatches(one, `${one.csrf}x`)).toBe(false);
    expect(csrfMatches(one, undefined)).toBe(false);
  });

  it("drops a signed-in session unused for CONSOLE_IDLE_MS, and any after CONSOLE_MAX_AGE_MS", () => {
    const { sessions, advance } = clocked();
    const idle = sessions.open(ALICE);
    advance(CONSOLE_IDLE_MS - 1);
    expect(sessions.find(idle.id)).toBe(idle);
    advance(CONSOLE_IDLE_MS + 1);
    expect(sessions.find(idle.id)).toBeUndefined();
    const busy = sessions.open(ALICE);
    for (let used = 0; used < CONSOLE_MAX_AGE_MS; used += CONSOLE_IDLE_MS / 2) {
      expect(sessions.find(busy.id)).toBe(busy);
      advance(CONSOLE_IDLE_MS / 2);
    }
    advance(1);
    expect(sessions.find(busy.id)).toBeUndefined();
  });

  it("drops a page waiting for a login after PENDING_LOGIN_MS", () => {
    const { sessions, advance } = clocked();
    const pending = sessions.open();
    advance(PENDING_LOGIN_MS + 1);
    expect(sessions.find(pending.id)).toBeUndefined();
  });

  it("bounds both kinds apart: opening pages never signs anyone out; the least recently used goes first", () => {
    const { sessions } = clocked();
    const keyOf = (index: number): Caller => ({ ...ALICE, keyId: `key${index}` });
    const first = sessions.open(keyOf(0));
    const second = sessions.open(keyOf(1));
    for (let index = 0; index < MAX_PENDING_LOGINS * 3; index += 1) sessions.open();
    expect(sessions.size()).toEqual({ pending: MAX_PENDING_LOGINS, signedIn: 2 });
    expect(sessions.find(first.id)).toBe(first);
    for (let index = 2; index < MAX_CONSOLE_SESSIONS + 1; index += 1) sessions.open(keyOf(index));
    expect(sessions.size().signedIn).toBe(MAX_CONSOLE_SESSIONS);
    expect(sessions.find(second.id)).toBeUndefined(); // used least recently: dropped
    expect(sessions.find(first.id)).toBe(first);
  });

  it("one key holds at most MAX_CONSOLE_SESSIONS_PER_KEY: signing in again and again drops only its own", () => {
    const { sessions } = clocked();
    const bob = sessions.open({ ...ALICE, keyId: "bob" });
    const alices = Array.from({ length: MAX_CONSOLE_SESSIONS * 2 }, () => sessions.open(ALICE));
    expect(sessions.size().signedIn).toBe(MAX_CONSOLE_SESSIONS_PER_KEY + 1);
    expect(sessions.find(bob.id)).toBe(bob);
    expect(sessions.find(alices[0]?.id)).toBeUndefined();
    expect(sessions.find(alices.at(-1)?.id)).toBe(alices.at(-1));
  });

  it("close ends a session", () => {
    const { sessions } = clocked();
    const session = sessions.open(ALICE);
    sessions.close(session.id);
    expect(sessions.find(session.id)).toBeUndefined();
  });
});
