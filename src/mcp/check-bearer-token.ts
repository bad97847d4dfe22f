import { createHash, timingSafeEqual } from "node:crypto";

/** `Authorization: Bearer <token>`: the scheme is case-insensitive (RFC 7235), the token is not. */
const BEARER_PATTERN = /^Bearer +(\S+) *$/iu;

/**
 * A checker for `Authorization` headers against `token`, comparing SHA-256 digests in constant time, so
 * neither the token's content nor its length shows in the timing.
 */
export function bearerTokenChecker(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const presented = authorization === undefined ? undefined : BEARER_PATTERN.exec(authorization)?.[1];
    return presented !== undefined && timingSafeEqual(digest(presented), expected);
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
