import type { Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import type { Caller } from "../../runtime/http-guard/index.js";
import { CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";
import { type ConsoleSession, type ConsoleSessions, csrfMatches } from "./console-sessions.js";
import type { ConsoleOptions } from "./types.js";

/** A console refusal, in the gateway's OpenAI error shape. */
export type Refusal = { status: 400 | 401 | 403 | 404 | 429; code: string; message: string };

/** What each group of console routes is registered with. */
export type ConsoleRouteContext = ConsoleOptions & {
  app: Hono;
  sessions: ConsoleSessions;
  /** The session the cookie names, when the request carries its CSRF token. */
  sessionWithCsrf(c: Context): Promise<ConsoleSession | Refusal>;
  /** The signed-in caller of a request with the right CSRF token. */
  signedInCaller(c: Context): Promise<Caller | Refusal>;
};

/** The request checks every console API route shares, over one session store. */
export function consoleGate(
  sessions: ConsoleSessions,
): Pick<ConsoleRouteContext, "sessionWithCsrf" | "signedInCaller"> {
  async function sessionWithCsrf(c: Context): Promise<ConsoleSession | Refusal> {
    const session = sessions.find(getCookie(c, SESSION_COOKIE));
    if (session === undefined) return loginRefusal();
    if (!csrfMatches(session, c.req.header(CSRF_HEADER))) return csrfRefusal();
    return session;
  }
  async function signedInCaller(c: Context): Promise<Caller | Refusal> {
    const session = await sessionWithCsrf(c);
    if ("status" in session) return session;
    return session.caller ?? loginRefusal();
  }
  return { sessionWithCsrf, signedInCaller };
}

export function refuse(c: Context, refusal: Refusal): Response {
  return c.json(
    { error: { message: refusal.message, type: "invalid_request_error", param: null, code: refusal.code } },
    refusal.status,
  );
}

export function csrfRefusal(): Refusal {
  return {
    status: 403,
    code: "csrf_token_invalid",
    message: `a console request must carry its session's CSRF token in ${CSRF_HEADER}: reload the page.`,
  };
}

export function loginRefusal(): Refusal {
  return { status: 401, code: "console_login_required", message: "sign in at /console/login first." };
}
