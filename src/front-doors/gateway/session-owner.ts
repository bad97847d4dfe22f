import { createHash } from "node:crypto";
import { type Caller, isAdminCaller } from "../../runtime/http-guard/index.js";
import { MAX_SESSION_KEY_CHARS } from "../../runtime/sessions/index.js";

/**
 * The stored session key of the session a caller names `name` (the one place client session names become
 * stored keys). Admin callers (and the trusted loopback caller) name stored keys directly, as before keys
 * existed. Any other key gets its own namespace, `<keyId>.<name>`: key ids hold no ".", and a name starts with
 * a letter or digit, so the mapping is injective and two keys naming the same session get two sessions. A
 * name too long for the prefix within the 128-character key rule becomes `<keyId>..<sha256 of name>`, which
 * no plain name can collide with (a name never starts with ".").
 */
export function storedSessionKey(caller: Caller, name: string): string {
  if (isAdminCaller(caller)) return name;
  const plain = `${caller.keyId}.${name}`;
  if (plain.length <= MAX_SESSION_KEY_CHARS) return plain;
  return `${caller.keyId}..${createHash("sha256").update(name, "utf8").digest("hex")}`;
}

/**
 * The name `caller` knows a stored session by (what `x-toolsift-session` and its session listing show): the
 * stored key itself for admin callers, the key's own name (its namespace prefix removed) for any other key.
 */
export function clientSessionName(caller: Caller, sessionKey: string): string {
  if (isAdminCaller(caller)) return sessionKey;
  return sessionKey.slice(caller.keyId.length + 1);
}

/** True when `caller` may read and continue the stored session: admin callers all, other keys their own. */
export function ownsSession(caller: Caller, sessionKey: string): boolean {
  return isAdminCaller(caller) || sessionKey.startsWith(`${caller.keyId}.`);
}

/**
 * The key whose namespace holds a stored session (shown to admin callers): the configured non-admin key id
 * its key starts with, or null for the admin namespace (sessions named by admin keys or before keys).
 */
export function sessionOwner(sessionKey: string, namespacedKeyIds: ReadonlySet<string>): string | null {
  const dot = sessionKey.indexOf(".");
  if (dot <= 0) return null;
  const prefix = sessionKey.slice(0, dot);
  return namespacedKeyIds.has(prefix) ? prefix : null;
}
