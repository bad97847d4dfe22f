import type { Context, MiddlewareHandler } from "hono";
import { type Caller, LOCAL_CALLER } from "./caller.js";
import { createHostCheck, type HostRule } from "./check-host.js";
import { createOriginCheck } from "./check-origin.js";
import { checkOwnOrigin } from "./check-own-origin.js";
import { type AuthKey, createKeyRing, type KeyRing } from "./create-key-ring.js";
import { quoteHeader } from "./quote-header.js";
import type { GuardRefusal, GuardVerdict } from "./types.js";

/** How long a browser may cache a successful CORS preflight (`Access-Control-Max-Age`), in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

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
   * The legacy single token: the admin key `admin`. With it or `keys`, every path but `openPaths` needs a
   * key's token, as `Authorization: Bearer <token>` or `x-api-key: <token>` (Anthropic's clients). Default: none.
   */
  bearerToken?: string;
  /** Client keys with scopes (`gateway.auth.keys`), beside or instead of `bearerToken`. Default: none. */
  keys?: readonly AuthKey[];
  /**
   * A key ring already built from the keys (`createKeyRing`), used instead of `bearerToken` and `keys`: a
   * server that builds its guard more than once keeps only the ring (digests), not the tokens. Default: none.
   */
  keyRing?: KeyRing;
  /** Paths answered without a token (still Host- and Origin-checked). Default: none. */
  openPaths?: readonly string[];
  /**
   * Paths of the server's own pages (the gateway's console), which authenticate their callers themselves
   * (a session cookie): only the server's own origin passes the Origin check (no CORS, listed origins are
   * refused too), and no key is asked for. With no token and no keys the caller is the trusted local caller;
   * otherwise no caller is set. Default: none.
   */
  ownPages?: (path: string) => boolean;
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

/** The caller a guarded request was identified as, for the routes (`c.get(CALLER)`). */
export const CALLER = "caller";

declare module "hono" {
  interface ContextVariableMap {
    /** Set by `createHttpGuard` on every request it lets through but the `ownPages` of a keyed server (see `Caller`). */
    caller: Caller;
  }
}

/**
 * Hono middleware that runs the browser-safety and auth checks, in order, before any route: Host (DNS
 * rebinding), Origin (with CORS preflight for listed origins), the caller's key, then a JSON `Content-Type`
 * on POST. A refusal is answered with `render`'s body and runs nothing; responses to listed origins carry
 * CORS headers. Every request let through carries its `Caller` (`c.get("caller")`): the key it presented,
 * or, with no token and no keys, the trusted local caller with every scope (an open path gets the key when
 * a right one is sent). Malformed `allowOrigins`/`allowedHosts` entries or a bad key list throw CONFIG_INVALID.
 */
export function createHttpGuard(options: HttpGuardOptions): MiddlewareHandler {
  const checkHost = createHostCheck(options.hosts);
  const checkOrigin = createOriginCheck(options.allowOrigins);
  const guarded = options.bearerToken !== undefined || (options.keys?.length ?? 0) > 0;
  const identify =
    options.keyRing ??
    (guarded
      ? createKeyRing({
          ...(options.keys === undefined ? {} : { keys: options.keys }),
          ...(options.bearerToken === undefined ? {} : { token: options.bearerToken }),
        })
      : undefined);
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
    if (options.ownPages?.(c.req.path) === true) {
      const own = checkOwnOrigin(c.req.header("origin"), c.req.header("host"));
      if (own !== undefined) return refuse(c, own);
      if (identify === undefined) c.set(CALLER, LOCAL_CALLER);
      if (requiresJsonBody(c.req.method, c.req.path)) {
        const contentType = checkJsonContentType(c.req.header("content-type"));
        if (contentType !== undefined) return refuse(c, contentType);
      }
      return next();
    }
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
    if (identify === undefined) c.set(CALLER, LOCAL_CALLER);
    else {
      const caller = identify(c.req.header("authorization"), c.req.header("x-api-key"));
      if (!("status" in caller)) c.set(CALLER, caller);
      else if (!openPaths.has(c.req.path)) return refuse(c, caller, allowed);
    }
    if (requiresJsonBody(c.req.method, c.req.path)) {
      const contentType = checkJsonContentType(c.req.header("content-type"));
      if (contentType !== undefined) return refuse(c, contentType, allowed);
    }
    await next();
    if (allowed !== undefined) corsHeaders(c, allowed);
  };
}

/** `type/subtype` of a JSON media type: `application/json`, or any `type/subtype+json`. */
const JSON_MEDIA_TYPE = /^(?:application\/json|[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json)$/u;

/**
 * True when a `Content-Type` value names JSON: `application/json` or `*\/*+json`, case-insensitive, with
 * any parameters (`; charset=utf-8`). `text/plain`, form types and a missing header are not JSON.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = contentType.split(";", 1)[0]?.trim().toLowerCase() ?? "";
  return JSON_MEDIA_TYPE.test(mediaType);
}

/**
 * Refuses a request body that does not declare JSON with 415 `unsupported_media_type`. Browsers send
 * `text/plain`, form and multipart bodies cross-site without a preflight; a JSON type needs one, so
 * reading only declared JSON keeps "simple" cross-site requests from running anything.
 */
export function checkJsonContentType(contentType: string | undefined): GuardVerdict {
  if (isJsonContentType(contentType)) return undefined;
  const got = contentType === undefined ? "no Content-Type" : `Content-Type ${quoteHeader(contentType)}`;
  return {
    status: 415,
    code: "unsupported_media_type",
    message: `the request body must be JSON: send Content-Type: application/json (got ${got}).`,
  };
}
