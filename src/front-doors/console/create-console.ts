import { Hono } from "hono";
import { createMemoryConsoleSessionStore } from "../../runtime/state/index.js";
import { registerApprovalRoutes } from "./approval-routes.js";
import { registerChatRoutes } from "./chat-routes.js";
import { createAssetReader } from "./console-assets.js";
import { CONSOLE_PAGES, CONSOLE_PATH } from "./console-paths.js";
import { type ConsoleRouteContext, consoleGate, refuse } from "./console-request.js";
import { registerHealthRoutes } from "./health-routes.js";
import { registerLiveRoutes } from "./live-routes.js";
import { registerLogRoutes } from "./log-routes.js";
import { registerReadRoutes } from "./read-routes.js";
import { consoleHeaders } from "./security-headers.js";
import { registerSignInRoutes } from "./sign-in-routes.js";
import { registerToolSearchRoutes } from "./tool-search-routes.js";
import type { ConsoleOptions } from "./types.js";

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
  const sessions = options.sessions ?? createMemoryConsoleSessionStore(options.now);
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

  const context: ConsoleRouteContext = { ...options, app, sessions, ...consoleGate(sessions, options) };
  registerSignInRoutes(context, api);
  registerReadRoutes(context, api);
  registerApprovalRoutes(context, api);
  registerLogRoutes(context, api);
  registerHealthRoutes(context, api);
  registerChatRoutes(context, api);
  registerToolSearchRoutes(context, api);
  registerLiveRoutes(context, api);

  // Anything else under /console: a 404 that still carries the console's headers.
  app.all(`${CONSOLE_PATH}/*`, (c) =>
    refuse(c, { status: 404, code: "not_found", message: "no such console page: start at /console." }),
  );
  return app;
}
