import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { type Caller, createClientAddressReader } from "../../runtime/http-guard/index.js";
import { CONSOLE_PATH, CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";
import { type ConsoleRouteContext, csrfRefusal, refuse } from "./console-request.js";
import type { ConsoleSession } from "./console-sessions.js";
import { CONSOLE_MAX_AGE_MS, MAX_CONSOLE_BODY_BYTES, MAX_TOKEN_CHARS } from "./limits.js";
import { createLoginRateLimit, type LoginAllowance } from "./login-rate-limit.js";
import { createPageOpenLimit } from "./page-open-limit.js";

/**
 * `GET /console/api/session` (the browser's console session and its CSRF token), `POST /console/api/login`
 * (a key's token exchanged for a signed-in session; failed logins are rate limited per client address and in
 * all, `login-rate-limit.ts`) and `POST /console/api/logout`. The sessions a client address opens are limited
 * too (`page-open-limit.ts`). The client address is `context.clientAddress`'s (behind a trusted proxy, the
 * address it forwards), by default the TCP peer's.
 */
export function registerSignInRoutes(context: ConsoleRouteContext, api: string): void {
  const { app, backend, log, sessions, currentSession, sessionWithCsrf } = context;
  const limit = createLoginRateLimit({ now: context.now ?? Date.now, log });
  const opens = createPageOpenLimit({ now: context.now ?? Date.now, log });
  const clientAddress = context.clientAddress ?? createClientAddressReader();

  // The page's first call: the session the cookie names (or a new one) and its CSRF token. It needs the CSRF
  // header to be present (any value), so only a script of the console's own origin can ask.
  app.get(`${api}/session`, async (c) => {
    if (c.req.header(CSRF_HEADER) === undefined) return refuse(c, csrfRefusal());
    let session = await currentSession(c);
    if (session === undefined) {
      // A new session waiting for a login (on a fleet, a row): a loop from one address cannot push out others'.
      const allowance = opens.open(clientAddress(c));
      if (!allowance.allowed) return refuseTooManyOpens(c, allowance.retryAfterMs);
      // Without keys the guard's caller is the trusted loopback caller: signed in at once.
      const caller = backend.keyed ? undefined : (c.get("caller") as Caller | undefined);
      session = { ...(await sessions.open(caller?.keyId)), caller };
      setSessionCookie(c, session);
    }
    return c.json(describeSession(context, session));
  });

  app.post(`${api}/login`, async (c) => {
    const session = await sessionWithCsrf(c);
    if ("status" in session) return refuse(c, session);
    const address = clientAddress(c);
    // Checked before the token: while an address is limited, even a right token is refused.
    const allowance = limit.allow(address);
    if (!allowance.allowed) return refuseLimited(c, allowance);
    const body = await backend.readJson(c, MAX_CONSOLE_BODY_BYTES);
    const token = readToken(body);
    if (token === undefined) {
      return refuse(c, {
        status: 400,
        code: "invalid_request",
        message: 'send { "token": "<a key\'s token>" }.',
      });
    }
    const caller = backend.identify(token);
    if (caller === undefined) {
      log("console: login refused (no key has that token)");
      limit.fail(address);
      return refuse(c, {
        status: 401,
        code: "invalid_api_key",
        message: "that token is no key of this gateway.",
      });
    }
    // A new session id at login: a cookie planted before it never becomes a signed-in session.
    await sessions.close(session.id);
    const signedIn: ConsoleSession = { ...(await sessions.open(caller.keyId)), caller };
    setSessionCookie(c, signedIn);
    log(`console: key ${caller.keyId} signed in`);
    return c.json(describeSession(context, signedIn));
  });

  app.post(`${api}/logout`, async (c) => {
    const session = await sessionWithCsrf(c);
    if ("status" in session) return refuse(c, session);
    await sessions.close(session.id);
    deleteCookie(c, SESSION_COOKIE, { path: CONSOLE_PATH, ...(overTls(c) ? { secure: true } : {}) });
    if (session.caller !== undefined) log(`console: key ${session.caller.keyId} signed out`);
    return c.json({ signedIn: false });
  });
}

function describeSession(context: ConsoleRouteContext, session: ConsoleSession) {
  const { backend } = context;
  const caller = session.caller;
  return {
    signedIn: caller !== undefined,
    keyed: backend.keyed,
    csrf: session.csrf,
    ...(caller === undefined
      ? {}
      : {
          keyId: caller.keyId,
          scopes: caller.scopes,
          agents: backend.agents(caller),
          approvals: backend.approvals !== undefined,
        }),
  };
}

function setSessionCookie(c: Context, session: ConsoleSession): void {
  setCookie(c, SESSION_COOKIE, session.id, {
    path: CONSOLE_PATH,
    httpOnly: true,
    sameSite: "Strict",
    maxAge: Math.floor(CONSOLE_MAX_AGE_MS / 1000),
    ...(overTls(c) ? { secure: true } : {}),
  });
}

/**
 * True when the browser reached the console over TLS (a proxy's: the gateway speaks plain HTTP): the request's
 * `Origin` is `https://…` (the guard has checked it is the gateway's own host; a login POST always carries
 * one), or the proxy says so with `X-Forwarded-Proto: https` (a GET of the page's script carries no Origin). A
 * client that sends either over plain HTTP only gets a cookie its own browser will not keep.
 */
function overTls(c: Context): boolean {
  const origin = c.req.header("origin")?.trim().toLowerCase();
  if (origin?.startsWith("https://") === true) return true;
  const forwarded = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
}

/** `Retry-After` in whole seconds (at least 1); the seconds. */
function retryAfter(c: Context, retryAfterMs: number): number {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  c.header("Retry-After", String(seconds));
  return seconds;
}

/** 429 with `Retry-After` for a page's first call from an address that opened too many sessions. */
function refuseTooManyOpens(c: Context, retryAfterMs: number): Response {
  const seconds = retryAfter(c, retryAfterMs);
  return refuse(c, {
    status: 429,
    code: "too_many_page_opens",
    message: `too many console pages opened from this address without signing in: try again in ${seconds} s (browsers already signed in are not affected).`,
  });
}

/** 429 with `Retry-After` (whole seconds) for a login refused by the rate limit. */
function refuseLimited(c: Context, allowance: Exclude<LoginAllowance, { allowed: true }>): Response {
  const seconds = retryAfter(c, allowance.retryAfterMs);
  const who = allowance.reason === "address" ? "from this address" : "on this gateway";
  return refuse(c, {
    status: 429,
    code: "too_many_logins",
    message: `too many failed console logins ${who}: try again in ${seconds} s (until then every login is refused, even with a right token).`,
  });
}

function readToken(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const token = (body as Record<string, unknown>).token;
  if (typeof token !== "string") return undefined;
  const trimmed = token.trim();
  return trimmed.length > 0 && trimmed.length <= MAX_TOKEN_CHARS ? trimmed : undefined;
}
