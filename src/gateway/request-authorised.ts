import type { Context } from "hono";
import { createBearerTokenCheck } from "../http-guard/index.js";

/**
 * Whether a request may see what only the gateway's operator should (`/healthz` details such as the state
 * directory's path): always without a token configured (loopback only), else only with the credentials the
 * bearer check accepts (`Authorization: Bearer <token>` or `x-api-key`). The one place to narrow this (to an
 * admin scope, say) later.
 */
export function createRequestAuthorisedCheck(authToken: string | undefined): (c: Context) => boolean {
  if (authToken === undefined) return () => true;
  const check = createBearerTokenCheck(authToken);
  return (c) => check(c.req.header("authorization"), c.req.header("x-api-key")) === undefined;
}
