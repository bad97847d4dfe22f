import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { ToolsiftError } from "../errors/index.js";
import { GatewayError } from "./gateway-error.js";

/** The one route answered without a token, so probes and load balancers need no secret. */
const OPEN_PATHS: ReadonlySet<string> = new Set(["/healthz"]);

/** `Authorization: Bearer <token>`: the scheme is case-insensitive (RFC 7235), the token is not. */
const BEARER_PATTERN = /^Bearer +(\S+) *$/iu;

/** The answer to every refused request: the same text whatever was wrong, and never the token. */
export const INVALID_TOKEN_MESSAGE = "Missing or invalid bearer token.";

/**
 * Middleware that lets a request through only with `Authorization: Bearer <token>` (every path but
 * `/healthz`), comparing SHA-256 digests of both tokens with `crypto.timingSafeEqual`, so neither the token's
 * content nor its length shows in the timing. Anything else is a 401 OpenAI error with `WWW-Authenticate`.
 */
export function requireBearerToken(token: string): MiddlewareHandler {
  if (typeof token !== "string" || token.length === 0) {
    throw new ToolsiftError(
      "CONFIG_INVALID",
      "gateway.auth.token is empty: set a long random token, or leave the key out to serve loopback only.",
    );
  }
  const expected = digest(token);
  return async (c: Context, next: () => Promise<void>): Promise<Response | undefined> => {
    if (OPEN_PATHS.has(c.req.path) || presentsToken(c.req.header("authorization"), expected)) {
      await next();
      return;
    }
    const refused = new GatewayError(401, INVALID_TOKEN_MESSAGE, {
      type: "invalid_request_error",
      code: "invalid_api_key",
    });
    c.header("WWW-Authenticate", "Bearer");
    return c.json(refused.body(), 401);
  };
}

function presentsToken(header: string | undefined, expected: Buffer): boolean {
  const match = header === undefined ? null : BEARER_PATTERN.exec(header);
  const presented = match?.[1];
  if (presented === undefined) return false;
  return timingSafeEqual(digest(presented), expected);
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
