import { createHash, timingSafeEqual } from "node:crypto";
import { ToolsiftError } from "../errors/index.js";
import { INVALID_TOKEN_MESSAGE } from "./limits.js";
import type { GuardVerdict } from "./types.js";

/** `Authorization: Bearer <token>`: the scheme is case-insensitive (RFC 7235), the token is not. */
const BEARER_PATTERN = /^Bearer +(\S+) *$/iu;

/**
 * A check of a request's credentials against `token`: `Authorization: Bearer <token>`, or `x-api-key: <token>`
 * as Anthropic's clients send it. At least one must be sent, and every one sent must match (a right key
 * beside a wrong bearer token is refused, never guessed between). Tokens are compared as SHA-256 digests with
 * `crypto.timingSafeEqual`, so neither the token's content nor its length shows in the timing. Every refusal
 * is the same 401 `invalid_api_key` with `WWW-Authenticate: Bearer`. An empty token throws CONFIG_INVALID.
 */
export function createBearerTokenCheck(
  token: string,
): (authorization: string | undefined, apiKey?: string) => GuardVerdict {
  if (typeof token !== "string" || token.length === 0) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      "gateway.auth.token is empty: set a long random token, or leave the key out to serve loopback only.",
    );
  }
  const expected = digest(token);
  const matches = (presented: string | undefined) =>
    presented !== undefined && timingSafeEqual(digest(presented), expected);
  return (authorization, apiKey) => {
    const bearer = authorization === undefined ? undefined : BEARER_PATTERN.exec(authorization)?.[1];
    const bearerRight = authorization === undefined || matches(bearer);
    const apiKeyRight = apiKey === undefined || matches(apiKey);
    if ((authorization !== undefined || apiKey !== undefined) && bearerRight && apiKeyRight) return undefined;
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
