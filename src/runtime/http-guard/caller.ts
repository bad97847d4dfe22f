/** What a gateway key may do: start runs, read sessions and stored responses, decide approvals, or all. */
export const SCOPES = ["runs", "sessions:read", "approvals", "admin"] as const;

/** One scope of a gateway key (`gateway.auth.keys[].scopes`). */
export type Scope = (typeof SCOPES)[number];

/** The id the legacy `gateway.auth.token` gets as an admin key. */
export const LEGACY_TOKEN_KEY_ID = "admin";

/** The id of the trusted local caller of a loopback server with no token and no keys. */
export const LOCAL_CALLER_ID = "local";

/**
 * Key ids: letters, digits, "_" and "-", starting with a letter or digit, at most 32 characters. No "." so
 * that `<keyId>.<session name>` splits at its first dot (session names stay per key, injectively).
 */
export const KEY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/u;

/** Who sent a request, as the guard identified it once: never the token itself. */
export type Caller = {
  /** The key's id (`admin` for `gateway.auth.token`, `local` for the trusted loopback caller). */
  readonly keyId: string;
  readonly scopes: readonly Scope[];
  /** Agents the key may run; undefined means every agent. */
  readonly agents?: readonly string[];
  /** True for the caller of a server with no token and no keys (loopback only): every scope. */
  readonly trusted: boolean;
};

/** The caller of a loopback server with no token and no keys: the machine's users are trusted with every scope. */
export const LOCAL_CALLER: Caller = Object.freeze({
  keyId: LOCAL_CALLER_ID,
  scopes: Object.freeze(["admin"] as Scope[]),
  trusted: true,
});

/** True when the caller sees and decides everything (`admin`, or the trusted local caller). */
export function isAdminCaller(caller: Caller): boolean {
  return caller.scopes.includes("admin");
}

/** True when `caller` holds `scope`; `admin` holds every scope. */
export function callerHasScope(caller: Caller, scope: Scope): boolean {
  return isAdminCaller(caller) || caller.scopes.includes(scope);
}

/** True when `caller` may run `agentId`: its `agents` list, when it has one, names it. */
export function callerMayUseAgent(caller: Caller, agentId: string): boolean {
  return caller.agents === undefined || caller.agents.includes(agentId);
}
