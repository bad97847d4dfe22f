import type { Context, MiddlewareHandler } from "hono";
import { createBearerTokenCheck } from "./check-bearer-token.js";
import { checkJsonContentType } from "./check-content-type.js";
import { createHostCheck, type HostRule } from "./check-host.js";
import { createOriginCheck } from "./check-origin.js";
import { PREFLIGHT_MAX_AGE_SECONDS } from "./limits.js";
import type { GuardRefusal } from "./types.js";

/** What a listed origin may do, sent in CORS headers. */
export type CorsRules = {
  /** Methods a preflight allows (`Access-Control-Allow-Methods`). */
  allowMethods: readonly string[];
  /** Request headers a preflight allows (`Access-Control-Allow-Headers`), lowercase. */
  allowHeaders: readonly string[];
  /** Response headers a page may read (`Access-Control-Expose-Headers`). */
  exposeHeaders: readonly string[];
};

/** Options of `createHttpGuard`. */
export type HttpGuardOptions = {
  /** Which `Host` values the server answers to. */
  hosts: HostRule;
  /** Origins (`scheme://host[:port]`) whose pages may call the server (`gateway.cors.allowOrigins`). Default: none. */
  allowOrigins?: readonly string[];
  /** The CORS headers listed origins get. */
  cors: CorsRules;
  /**
   * When set, every path but `openPaths` needs the token, as `Authorization: Bearer <bearerToken>` or
   * `x-api-key: <bearerToken>` (Anthropic's clients). Default: none.
   */
  bearerToken?: string;
  /** Paths answered without the bearer token (still Host- and Origin-checked). Default: none. */
  openPaths?: readonly string[];
  /**
   * Which requests carry a body that must be declared JSON (415 otherwise). Default: every POST. A server
   * passes its POST routes, so a POST to a GET-only path still gets its 405.
   */
  requiresJsonBody?: (method: string, path: string) => boolean;
  /**
   * The JSON body of a refusal, in the server's error shape (OpenAI error object, JSON-RPC error); `path`
   * lets a server that speaks several APIs answer each in its own shape.
   */
  render: (refusal: GuardRefusal, path: string) => unknown;
  /** Receives one line per Host, Origin or content-type refusal, with its reason. Default: none. */
  log?: (line: string) => void;
};

/**
 * Hono middleware that runs the browser-safety and auth checks, in order, before any route: Host (DNS
 * rebinding), Origin (with CORS preflight for listed origins), bearer token, then a JSON `Content-Type` on
 * POST. A refusal is answered with `render`'s body and runs nothing; responses to listed origins carry CORS
 * headers. Malformed `allowOrigins`/`allowedHosts` entries or an empty token throw CONFIG_INVALID.
 */
export function createHttpGuard(options: HttpGuardOptions): MiddlewareHandler {
  const checkHost = createHostCheck(options.hosts);
  const checkOrigin = createOriginCheck(options.allowOrigins);
  const checkToken =
    options.bearerToken === undefined ? undefined : createBearerTokenCheck(options.bearerToken);
  const openPaths = new Set(options.openPaths ?? []);
  const requiresJsonBody = options.requiresJsonBody ?? ((method: string) => method === "POST");
  const allowMethods = options.cors.allowMethods.join(", ");
  const allowHeaders = options.cors.allowHeaders.join(", ");
  const exposeHeaders = options.cors.exposeHeaders.join(", ");

  const refuse = (c: Context, refusal: GuardRefusal, origin?: string): Response => {
    if (refusal.status !== 401) {
      options.log?.(
        `refused ${c.req.method} ${c.req.path}: ${refusal.status} ${refusal.code}: ${refusal.message}`,
      );
    }
    for (const [name, value] of Object.entries(refusal.headers ?? {})) c.header(name, value);
    if (origin !== undefined) corsHeaders(c, origin);
    return c.json(options.render(refusal, c.req.path) as object, refusal.status);
  };
  const corsHeaders = (c: Context, origin: string): void => {
    c.header("Access-Control-Allow-Origin", origin);
    c.header("Vary", "Origin", { append: true });
    if (exposeHeaders.length > 0) c.header("Access-Control-Expose-Headers", exposeHeaders);
  };

  return async (c, next) => {
    const host = checkHost(c.req.header("host"));
    if (host !== undefined) return refuse(c, host);
    const origin = checkOrigin(c.req.header("origin"));
    if ("status" in origin) return refuse(c, origin);
    const allowed = origin.kind === "allowed" ? origin.origin : undefined;
    if (
      allowed !== undefined &&
      c.req.method === "OPTIONS" &&
      c.req.header("access-control-request-method")
    ) {
      corsHeaders(c, allowed);
      c.header("Access-Control-Allow-Methods", allowMethods);
      c.header("Access-Control-Allow-Headers", allowHeaders);
      c.header("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_SECONDS));
      return c.body(null, 204);
    }
    if (checkToken !== undefined && !openPaths.has(c.req.path)) {
      const token = checkToken(c.req.header("authorization"), c.req.header("x-api-key"));
      if (token !== undefined) return refuse(c, token, allowed);
    }
    if (requiresJsonBody(c.req.method, c.req.path)) {
      const contentType = checkJsonContentType(c.req.header("content-type"));
      if (contentType !== undefined) return refuse(c, contentType, allowed);
    }
    await next();
    if (allowed !== undefined) corsHeaders(c, allowed);
  };
}
