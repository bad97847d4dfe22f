import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Caller } from "../../runtime/http-guard/index.js";
import { CONSOLE_PATH, CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";
import { type ConsoleRouteContext, csrfRefusal, refuse } from "./console-request.js";
import type { ConsoleSession } from "./console-sessions.js";
import { CONSOLE_MAX_AGE_MS, MAX_CONSOLE_BODY_BYTES, MAX_TOKEN_CHARS } from "./limits.js";

/**
 * `GET /console/api/session` (the browser's console session and its CSRF token), `POST /console/api/login`
 * (a key's token exchanged for a signed-in session) and `POST /console/api/logout`.
 */
export function registerSignInRoutes(context: ConsoleRouteContext, api: string): void {
  const { app, backend, log, sessions, sessionWithCsrf } = context;

  // The page's first call: the session the cookie names (or a new one) and its CSRF token. It needs the CSRF
  // header to be present (any value), so only a script of the console's own origin can ask.
  app.get(`${api}/session`, async (c) => {
    if (c.req.header(CSRF_HEADER) === undefined) return refuse(c, csrfRefusal());
    let session = sessions.find(getCookie(c, SESSION_COOKIE));
    if (session === undefined) {
      session = sessions.open(backend.keyed ? undefined : (c.get("caller") as Caller | undefined));
      setSessionCookie(c, session);
    }
    return c.json(describeSession(context, session));
  });

  app.post(`${api}/login`, async (c) => {
    const session = await sessionWithCsrf(c);
    if ("status" in session) return refuse(c, session);
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
      return refuse(c, {
        status: 401,
        code: "invalid_api_key",
        message: "that token is no key of this gateway.",
      });
    }
    // A new session id at login: a cookie planted before it never becomes a signed-in session.
    sessions.close(session.id);
    const signedIn = sessions.open(caller);
    setSessionCookie(c, signedIn);
    log(`console: key ${caller.keyId} signed in`);
    return c.json(describeSession(context, signedIn));
  });

  app.post(`${api}/logout`, async (c) => {
    const session = await sessionWithCsrf(c);
    if ("status" in session) return refuse(c, session);
    sessions.close(session.id);
    deleteCookie(c, SESSION_COOKIE, { path: CONSOLE_PATH });
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
  });
}

function readToken(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const token = (body as Record<string, unknown>).token;
  if (typeof token !== "string") return undefined;
  const trimmed = token.trim();
  return trimmed.length > 0 && trimmed.length <= MAX_TOKEN_CHARS ? trimmed : undefined;
}
