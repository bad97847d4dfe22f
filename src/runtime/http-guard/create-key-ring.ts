import { createHash, timingSafeEqual } from "node:crypto";
import { ToolsiftError } from "../../shared/errors/index.js";
import { type Caller, KEY_ID_PATTERN, LEGACY_TOKEN_KEY_ID, SCOPES, type Scope } from "./caller.js";
import { blankTokenError, isBlankToken } from "./check-bind-auth.js";
import type { GuardRefusal } from "./types.js";

/** The answer to every refused bearer token: the same text whatever was wrong, and never the token. */
export const INVALID_TOKEN_MESSAGE = "Missing or invalid bearer token.";

/** One client key as configured (`gateway.auth.keys[]`), its token already resolved from `env:`. */
export type AuthKey = {
  /** Shown in logs, listings and session headers; see `KEY_ID_PATTERN`. */
  id: string;
  /** The secret the client sends as a bearer token or `x-api-key`. */
  token: string;
  /** At least one of `SCOPES`. */
  scopes: readonly string[];
  /** Agents the key may run. Default: every agent. */
  agents?: readonly string[];
};

/** Identifies the caller of a request from its `Authorization` and `x-api-key` headers. */
export type KeyRing = {
  (authorization: string | undefined, apiKey?: string): Caller | GuardRefusal;
  /** The caller of the key with this id (as configured now); undefined when no key has it. */
  callerFor(keyId: string): Caller | undefined;
};

/** `Authorization: Bearer <token>`: the scheme is case-insensitive (RFC 7235), the token is not. */
const BEARER_PATTERN = /^Bearer +(\S+) *$/iu;

/**
 * Builds the caller identification of a server from its keys (and the legacy single token, which becomes the
 * admin key `admin`). Only SHA-256 digests of the tokens are kept. A presented token's digest is compared with
 * `crypto.timingSafeEqual` against every key's digest, with no early exit, so the timing shows neither which
 * key nearly matched nor the token's length. Every credential sent (bearer and `x-api-key`) must name the same
 * key; anything else is the same 401 `invalid_api_key`. A bad key list throws CONFIG_INVALID naming the entry.
 */
export function createKeyRing(options: { keys?: readonly AuthKey[]; token?: string }): KeyRing {
  const entries = readKeys(options);
  const identify = (presented: string | undefined): Caller | undefined => {
    if (presented === undefined) return undefined;
    const digest = sha256(presented);
    let found: Caller | undefined;
    for (const entry of entries) {
      if (timingSafeEqual(digest, entry.digest) && found === undefined) found = entry.caller;
    }
    return found;
  };
  const byId = new Map(entries.map((entry) => [entry.caller.keyId, entry.caller]));
  const ring = (authorization: string | undefined, apiKey?: string): Caller | GuardRefusal => {
    const bearer = authorization === undefined ? undefined : BEARER_PATTERN.exec(authorization)?.[1];
    const byBearer = authorization === undefined ? undefined : identify(bearer);
    const byApiKey = apiKey === undefined ? undefined : identify(apiKey);
    const bearerRight = authorization === undefined || byBearer !== undefined;
    const apiKeyRight = apiKey === undefined || byApiKey !== undefined;
    const caller = byBearer ?? byApiKey;
    const agree = byBearer === undefined || byApiKey === undefined || byBearer === byApiKey;
    if (caller !== undefined && bearerRight && apiKeyRight && agree) return caller;
    return {
      status: 401,
      code: "invalid_api_key",
      message: INVALID_TOKEN_MESSAGE,
      headers: { "WWW-Authenticate": "Bearer" },
    };
  };
  return Object.assign(ring, { callerFor: (keyId: string) => byId.get(keyId) });
}

/** Checks the keys and keeps, per key, only its caller and its token's digest. */
function readKeys(options: { keys?: readonly AuthKey[]; token?: string }) {
  const keys: Array<{ key: AuthKey; where: string }> = [];
  if (options.token !== undefined) {
    if (typeof options.token !== "string" || isBlankToken(options.token)) throw blankTokenError();
    keys.push({
      key: { id: LEGACY_TOKEN_KEY_ID, token: options.token, scopes: ["admin"] },
      where: "gateway.auth.token",
    });
  }
  (options.keys ?? []).forEach((key, index) => {
    keys.push({ key, where: `gateway.auth.keys[${index}]` });
  });
  const ids = new Map<string, string>();
  const digests: Array<{ digest: Buffer; where: string }> = [];
  return keys.map(({ key, where }) => {
    const id: unknown = key?.id;
    if (typeof id !== "string" || !KEY_ID_PATTERN.test(id)) {
      throw invalid(
        `${where}.id must be 1 to 32 letters, digits, "_" or "-", starting with a letter or digit (e.g. "alice").`,
      );
    }
    const taken = ids.get(id);
    if (taken !== undefined) {
      const legacy = taken === "gateway.auth.token" ? ' (gateway.auth.token is the admin key "admin")' : "";
      throw invalid(`${where}.id "${id}" is already used by ${taken}${legacy}: give every key its own id.`);
    }
    ids.set(id, where);
    const token: unknown = key.token;
    if (typeof token !== "string" || isBlankToken(token)) {
      throw invalid(
        `${where}.token (key "${id}") is missing or empty (or only whitespace; an env: variable that is not set leaves it out): set a long random token.`,
      );
    }
    const digest = sha256(token);
    const twin = digests.find((other) => timingSafeEqual(other.digest, digest));
    if (twin !== undefined) {
      throw invalid(
        `${where}.token (key "${id}") is the same as ${twin.where}'s: every key needs its own token.`,
      );
    }
    digests.push({ digest, where });
    const scopes = readScopes(key.scopes, where, id);
    const caller: Caller = Object.freeze({
      keyId: id,
      scopes,
      trusted: false,
      ...(key.agents === undefined ? {} : { agents: readAgents(key.agents, where, id) }),
    });
    return { digest, caller };
  });
}

function readScopes(scopes: unknown, where: string, id: string): readonly Scope[] {
  const allowed = SCOPES.map((scope) => `"${scope}"`).join(", ");
  if (!Array.isArray(scopes) || scopes.length === 0) {
    throw invalid(`${where}.scopes (key "${id}") must be a non-empty list of ${allowed}.`);
  }
  for (const [index, scope] of scopes.entries()) {
    if (!SCOPES.includes(scope as Scope)) {
      const shown = typeof scope === "string" ? JSON.stringify(scope.slice(0, 40)) : typeof scope;
      throw invalid(`${where}.scopes[${index}] (key "${id}") is ${shown}: a scope is one of ${allowed}.`);
    }
  }
  return Object.freeze([...new Set(scopes as Scope[])]);
}

function readAgents(agents: unknown, where: string, id: string): readonly string[] {
  if (!Array.isArray(agents) || !agents.every((agent) => typeof agent === "string" && agent.length > 0)) {
    throw invalid(`${where}.agents (key "${id}") must be a list of agent ids, or left out for every agent.`);
  }
  return Object.freeze([...agents]);
}

function invalid(message: string): ToolsiftError {
  return new ToolsiftError("CONFIG_INVALID", message);
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
