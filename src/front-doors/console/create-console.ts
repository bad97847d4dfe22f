import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Caller } from "../../runtime/http-guard/index.js";
import { createAssetReader } from "./console-assets.js";
import { CONSOLE_PAGES, CONSOLE_PATH, CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";
import { type ConsoleSession, ConsoleSessions, csrfMatches } from "./console-sessions.js";
import { CONSOLE_MAX_AGE_MS, MAX_CONSOLE_BODY_BYTES, MAX_FILTER_CHARS, MAX_TOKEN_CHARS } from "./limits.js";
import { consoleHeaders } from "./security-headers.js";
import type { ConsoleOptions } from "./types.js";

/** A console refusal, in the gateway's OpenAI error shape. */
type Refusal = { status: 400 | 401 | 403 | 404; code: string; message: string };

/**
 * The operator console's routes, mounted at `/console` on the gateway app: the pages (one shell and its
 * script and style), and a JSON API the script calls. The guard has already checked the Host and that any
 * `Origin` is the gateway's own (own pages, `src/runtime/http-guard`). On top of it, every API request must
 * be same-origin by `Sec-Fetch-Site` when the browser sends it, and carry the session's CSRF token in
 * `x-console-csrf` (a page of another origin can neither read the token nor send the header without a
 * preflight, which the guard refuses); every POST must also carry the gateway's own `Origin`. A session is a
 * random id in an HttpOnly, SameSite=Strict cookie scoped to `/console`; the token pasted at the login is
 * checked against the gateway's keys and never kept, logged or put in a URL.
 */
export function createConsoleRoutes(options: ConsoleOptions): Hono {
  const { backend, log } = options;
  const sessions = new ConsoleSessions(options.now);
  const assets = createAssetReader();
  const app = new Hono();
  // Scoped to the console's paths: the app is mounted at the gateway's root.
  app.use(CONSOLE_PATH, consoleHeaders());
  app.use(`${CONSOLE_PATH}/*`, consoleHeaders());

  for (const page of CONSOLE_PAGES) {
    app.get(page, async (c) => {
      const shell = await assets.shell();
      return c.body(shell.body, 200, { "Content-Type": shell.type });
    });
  }
  app.get(`${CONSOLE_PATH}/assets/:name`, async (c) => {
    const asset = await assets.asset(c.req.param("name"));
    if (asset === undefined) return refuse(c, { status: 404, code: "not_found", message: "no such file." });
    return c.body(asset.body, 200, { "Content-Type": asset.type });
  });

  const api = `${CONSOLE_PATH}/api`;
  // Every API request: same-origin by Fetch Metadata, and a POST names its (own) origin.
  app.use(`${api}/*`, async (c, next) => {
    const site = c.req.header("sec-fetch-site");
    if (site !== undefined && site !== "same-origin") {
      return refuse(c, {
        status: 403,
        code: "forbidden_origin",
        message: `the console's API answers only its own pages (Sec-Fetch-Site: ${site.slice(0, 40)}).`,
      });
    }
    if (c.req.method === "POST" && c.req.header("origin") === undefined) {
      return refuse(c, {
        status: 403,
        code: "forbidden_origin",
        message: "a console POST must come from the console's own page (no Origin header was sent).",
      });
    }
    await next();
  });

  // The page's first call: the session the cookie names (or a new one) and its CSRF token. It needs the CSRF
  // header to be present (any value), so only a script of the console's own origin can ask.
  app.get(`${api}/session`, async (c) => {
    if (c.req.header(CSRF_HEADER) === undefined) return refuse(c, csrfRefusal());
    let session = sessions.find(getCookie(c, SESSION_COOKIE));
    if (session === undefined) {
      session = sessions.open(backend.keyed ? undefined : (c.get("caller") as Caller | undefined));
      setSessionCookie(c, session);
    }
    return c.json(describeSession(session));
  });

  app.post(`${api}/login`, async (c) => {
    const session = sessionWithCsrf(c);
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
    return c.json(describeSession(signedIn));
  });

  app.post(`${api}/logout`, (c) => {
    const session = sessionWithCsrf(c);
    if ("status" in session) return refuse(c, session);
    sessions.close(session.id);
    deleteCookie(c, SESSION_COOKIE, { path: CONSOLE_PATH });
    if (session.caller !== undefined) log(`console: key ${session.caller.keyId} signed out`);
    return c.json({ signedIn: false });
  });

  app.get(`${api}/sessions`, async (c) => {
    const caller = signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    const agent = c.req.query("agent");
    const text = c.req.query("text")?.slice(0, MAX_FILTER_CHARS);
    const after = c.req.query("after");
    return c.json(
      await backend.listSessions(caller, {
        ...(agent === undefined || agent === "" ? {} : { agent }),
        ...(text === undefined || text === "" ? {} : { text }),
        ...(after === undefined || after === "" ? {} : { after }),
      }),
    );
  });

  app.get(`${api}/session-events`, async (c) => {
    const caller = signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    const agent = c.req.query("agent") ?? "";
    const key = c.req.query("key") ?? "";
    return c.json(await backend.readSession(caller, agent, key));
  });

  app.get(`${api}/health`, async (c) => {
    const caller = signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    return c.json(await backend.health(caller));
  });

  app.get(`${api}/tools`, async (c) => {
    const caller = signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    return c.json(await backend.tools(caller, c.req.query("agent") ?? ""));
  });

  const approvals = backend.approvals;
  app.get(`${api}/approvals`, async (c) => {
    const caller = signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    if (approvals === undefined) return c.json({ approvals: [], broker: false });
    return c.json({ ...((await approvals.pending(caller)) as object), broker: true });
  });
  app.post(`${api}/approvals/:id`, async (c) => {
    const caller = signedInCaller(c);
    if ("status" in caller) return refuse(c, caller);
    if (approvals === undefined) return refuse(c, noApprovals());
    const body = await backend.readJson(c, MAX_CONSOLE_BODY_BYTES);
    return c.json(await approvals.decide(caller, c.req.param("id"), body));
  });

  // Anything else under /console: a 404 that still carries the console's headers.
  app.all(`${CONSOLE_PATH}/*`, (c) =>
    refuse(c, { status: 404, code: "not_found", message: "no such console page: start at /console." }),
  );

  /** The session the cookie names, when the request carries its CSRF token. */
  function sessionWithCsrf(c: Context): ConsoleSession | Refusal {
    const session = sessions.find(getCookie(c, SESSION_COOKIE));
    if (session === undefined) return loginRefusal();
    if (!csrfMatches(session, c.req.header(CSRF_HEADER))) return csrfRefusal();
    return session;
  }

  /** The signed-in caller of a request with the right CSRF token. */
  function signedInCaller(c: Context): Caller | Refusal {
    const session = sessionWithCsrf(c);
    if ("status" in session) return session;
    return session.caller ?? loginRefusal();
  }

  function describeSession(session: ConsoleSession) {
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
            approvals: approvals !== undefined,
          }),
    };
  }

  return app;
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

function refuse(c: Context, refusal: Refusal): Response {
  return c.json(
    { error: { message: refusal.message, type: "invalid_request_error", param: null, code: refusal.code } },
    refusal.status,
  );
}

function csrfRefusal(): Refusal {
  return {
    status: 403,
    code: "csrf_token_invalid",
    message: `a console request must carry its session's CSRF token in ${CSRF_HEADER}: reload the page.`,
  };
}

function loginRefusal(): Refusal {
  return { status: 401, code: "console_login_required", message: "sign in at /console/login first." };
}

function noApprovals(): Refusal {
  return { status: 404, code: "not_found", message: "this gateway has no approval broker." };
}
