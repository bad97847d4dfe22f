import { createHash, timingSafeEqual } from "node:crypto";
import { ToolsiftError } from "../errors/index.js";
import { INVALID_TOKEN_MESSAGE } from "./limits.js";
import type { GuardVerdict } from "./types.js";

/** `Authorization: Bearer <token>`: the scheme is case-insensitive (RFC 7235), the token is not. */
const BEARER_PATTERN = /^Bearer +(\S+) *$/iu;

/**
 * A check of `Authorization` headers against `token`, comparing SHA-256 digests of both tokens with
 * `crypto.timingSafeEqual`, so neither the token's content nor its length shows in the timing. Every refusal
 * is the same 401 `invalid_api_key` with `WWW-Authenticate: Bearer`. An empty token throws CONFIG_INVALID.
 */
export function createBearerTokenCheck(token: string): (authorization: string | undefined) => GuardVerdict {
  if (typeof token !== "string" || token.length === 0) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      "gateway.auth.token is empty: set a long random token, or leave the key out to serve loopback only.",
    );
  }
  const expected = digest(token);
  return (authorization) => {
    const presented = authorization === undefined ? undefined : BEARER_PATTERN.exec(authorization)?.[1];
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) return undefined;
    return {
      status: 401,
      code: "invalid_api_key",
      message: INVALID_TOKEN_MESSAGE,
      headers: { "WWW-Authenticate": "Bearer" },
    };
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
