import { describe, expect, it } from "vitest";
import { type Caller, LOCAL_CALLER } from "../../runtime/http-guard/index.js";
import { isValidSessionKey, MAX_SESSION_KEY_CHARS } from "../../runtime/sessions/index.js";
import { clientSessionName, ownsSession, sessionOwner, storedSessionKey } from "./session-owner.js";

const key = (keyId: string, admin = false): Caller => ({
  keyId,
  scopes: admin ? ["admin"] : ["runs", "sessions:read"],
  trusted: false,
});
const ALICE = key("alice");
const BOB = key("bob");
const A = key("a");
const OPS = key("ops", true);
const LONG_ID = key("k".repeat(32));

describe("storedSessionKey: one stored session per key and name", () => {
  it.each<[string, Caller, string, string]>([
    ["a key gets its own namespace", ALICE, "notes", "alice.notes"],
    ["another key naming the same session", BOB, "notes", "bob.notes"],
    ["a name with dots", A, "b.c", "a.b.c"],
    ["admin names stored keys directly", OPS, "alice.notes", "alice.notes"],
    ["the trusted local caller names stored keys directly", LOCAL_CALLER, "notes", "notes"],
  ])("%s", (_name, caller, name, stored) => {
    expect(storedSessionKey(caller, name)).toBe(stored);
    expect(isValidSessionKey(stored)).toBe(true);
  });

  it("is injective across keys and names, the long-name form included", () => {
    const names = [
      "x",
      "b.c",
      "c",
      "a.b",
      "s-1-abc",
      "n".repeat(95),
      "n".repeat(96),
      "n".repeat(128),
      "m".repeat(128),
    ];
    const callers = [ALICE, BOB, A, key("a-b"), key("ab"), LONG_ID];
    const seen = new Map<string, string>();
    for (const caller of callers) {
      for (const name of names) {
        const stored = storedSessionKey(caller, name);
        expect(isValidSessionKey(stored)).toBe(true);
        expect(stored.length).toBeLessThanOrEqual(MAX_SESSION_KEY_CHARS);
        expect(ownsSession(caller, stored)).toBe(true);
        const who = `${caller.keyId}/${name}`;
        expect(seen.get(stored) ?? who).toBe(who);
        seen.set(stored, who);
      }
    }
    expect(seen.size).toBe(names.length * callers.length);
  });

  it("a name too long for the prefix is hashed into a form no plain name can take", () => {
    const stored = storedSessionKey(LONG_ID, "n".repeat(128));
    expect(stored).toMatch(/^k{32}\.\.[0-9a-f]{64}$/u);
  });
});

describe("ownsSession, clientSessionName and sessionOwner", () => {
  it.each<[string, Caller, string, boolean]>([
    ["own session", ALICE, "alice.notes", true],
    ["another key's", BOB, "alice.notes", false],
    ["a key whose id is a prefix of the owner's", A, "ab.notes", false],
    ["an admin-namespace session", ALICE, "notes", false],
    ["admin owns every session", OPS, "alice.notes", true],
  ])("%s → %s", (_name, caller, stored, owns) => {
    expect(ownsSession(caller, stored)).toBe(owns);
  });

  it("shows a key its own names and admin the stored keys", () => {
    expect(clientSessionName(ALICE, "alice.b.c")).toBe("b.c");
    expect(clientSessionName(OPS, "alice.b.c")).toBe("alice.b.c");
  });

  it("names the owner of a stored key among the namespaced keys, else null", () => {
    const ids = new Set(["alice", "bob"]);
    expect(sessionOwner("alice.notes", ids)).toBe("alice");
    expect(sessionOwner("carol.notes", ids)).toBeNull();
    expect(sessionOwner("notes", ids)).toBeNull();
  });
});
