import type { Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import type { Caller } from "../../runtime/http-guard/index.js";
import type { ConsoleSessionStore } from "../../runtime/state/index.js";
import { CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";
import { type ConsoleSession, csrfMatches } from "./console-sessions.js";
import type { ConsoleOptions } from "./types.js";

/** A console refusal, in the gateway's OpenAI error shape. */
export type Refusal = { status: 400 | 401 | 403 | 404 | 429; code: string; message: string };

/** What each group of console routes is registered with. */
export type ConsoleRouteContext = ConsoleOptions & {
  app: Hono;
  sessions: ConsoleSessionStore;
  /**
   * The live session the cookie names, with the caller its key id is now; undefined when there is none. A
   * session whose key is no longer configured is ended here, so removing a key signs its holders out.
   */
  currentSession(c: Context): Promise<ConsoleSession | undefined>;
  /** The session the cookie names, when the request carries its CSRF token. */
  sessionWithCsrf(c: Context): Promise<ConsoleSession | Refusal>;
  /** The signed-in caller of a request with the right CSRF token. */
  signedInCaller(c: Context): Promise<Caller | Refusal>;
};

/**
 * The request checks every console API route shares, over one session store. The store keeps a key's id,
 * never its scopes: each request asks the gateway's keys (`backend.callerFor`) who that id is now.
 */
export function consoleGate(
  sessions: ConsoleSessionStore,
  options: Pick<ConsoleOptions, "backend" | "log">,
): Pick<ConsoleRouteContext, "currentSession" | "sessionWithCsrf" | "signedInCaller"> {
  const { backend, log } = options;
  async function currentSession(c: Context): Promise<ConsoleSession | undefined> {
    const record = await sessions.find(getCookie(c, SESSION_COOKIE));
    if (record === undefined) return undefined;
    if (record.keyId === undefined) return { ...record, caller: undefined };
    const caller = backend.callerFor(record.keyId);
    if (caller !== undefined) return { ...record, caller };
    await sessions.close(record.id);
    log(`console: key ${record.keyId} is not configured on this gateway: its console session ended`);
    return undefined;
  }
  async function sessionWithCsrf(c: Context): Promise<ConsoleSession | Refusal> {
    const session = await currentSession(c);
    if (session === undefined) return loginRefusal();
    if (!csrfMatches(session, c.req.header(CSRF_HEADER))) return csrfRefusal();
    return session;
  }
  async function signedInCaller(c: Context): Promise<Caller | Refusal> {
    const session = await sessionWithCsrf(c);
    if ("status" in session) return session;
    return session.caller ?? loginRefusal();
  }
  return { currentSession, sessionWithCsrf, signedInCaller };
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
