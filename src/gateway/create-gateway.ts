import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { registerApprovalRoutes } from "./approval-routes.js";
import { isClientAborted } from "./client-aborted.js";
import type { GatewayContext } from "./gateway-context.js";
import { GatewayError, notFound } from "./gateway-error.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_QUEUED_PER_SESSION } from "./limits.js";
import { registerReadRoutes } from "./read-routes.js";
import { requireBearerToken } from "./require-bearer-token.js";
import { ResponseRegistry } from "./response-registry.js";
import { registerRunRoutes } from "./run-routes.js";
import { RunTracker } from "./run-tracker.js";
import { serveApp } from "./serve-app.js";
import { SessionQueue } from "./session-queue.js";
import type { Gateway, GatewayOptions } from "./types.js";

/** Every route with the methods it answers; other methods get 405 with an `Allow` header. */
const ROUTE_METHODS: ReadonlyArray<readonly [path: string, allow: string]> = [
  ["/v1/responses", "POST"],
  ["/v1/chat/completions", "POST"],
  ["/v1/tools/effective", "GET, HEAD"],
  ["/v1/sessions", "GET, HEAD"],
  ["/v1/sessions/:key", "GET, HEAD"],
  ["/healthz", "GET, HEAD"],
];

/** The approval routes, present only when the gateway was given a broker. */
const APPROVAL_ROUTE_METHODS: ReadonlyArray<readonly [path: string, allow: string]> = [
  ["/v1/approvals", "GET, HEAD"],
  ["/v1/approvals/:id", "POST"],
];

/** Longest request path quoted back in a 404 message. */
const SHOWN_PATH_CHARS = 200;

/**
 * Builds the toolsift gateway: the OpenAI-compatible run endpoints, the read-only routes, OpenAI-style
 * error objects for every failure (never a stack trace), per-session run serialisation, and a bounded drain.
 * With `authToken`, every route but `/healthz` needs the bearer token; with `approvals`, the approval routes
 * are served. An empty `authToken` throws CONFIG_INVALID.
 */
export function createGateway(options: GatewayOptions): Gateway {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const gateway: GatewayContext = {
    runner: options.runner,
    sessions: options.sessions,
    queue: new SessionQueue({
      maxQueuedPerKey: options.maxQueuedPerSession ?? DEFAULT_MAX_QUEUED_PER_SESSION,
    }),
    tracker: new RunTracker(),
    responses: new ResponseRegistry(),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    log,
  };
  const authenticate = options.authToken === undefined ? undefined : requireBearerToken(options.authToken);
  const app = new Hono();

  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    // While draining, keep-alive connections are closed after their response, so a stop is not held open.
    if (!gateway.tracker.accepting) c.header("Connection", "close");
    // A body the client never finished is one line, not an error with a stack.
    if (isClientAborted(c.error)) log(`${c.req.method} ${c.req.path} aborted by client`);
    else log(`${c.req.method} ${c.req.path} ${c.res.status} ${Math.round(performance.now() - started)}ms`);
  });
  // After the request log (refusals are logged too), before every route (unknown paths need the token too).
  if (authenticate !== undefined) app.use(authenticate);

  registerRunRoutes(app, gateway);
  registerReadRoutes(app, gateway);
  if (options.approvals !== undefined) registerApprovalRoutes(app, options.approvals);
  const routes =
    options.approvals === undefined ? ROUTE_METHODS : [...ROUTE_METHODS, ...APPROVAL_ROUTE_METHODS];
  for (const [path, allow] of routes) {
    app.all(path, (c) => {
      c.header("Allow", allow);
      throw new GatewayError(405, `${c.req.method} is not allowed on ${path}: use ${allow}.`, {
        type: "invalid_request_error",
        code: "method_not_allowed",
      });
    });
  }

  app.notFound((c) => {
    const path = c.req.path.slice(0, SHOWN_PATH_CHARS);
    const error = notFound(`no route ${c.req.method} ${path}: see the gateway routes in the toolsift docs.`);
    return c.json(error.body(), 404);
  });
  app.onError((error, c) => {
    if (error instanceof GatewayError) return c.json(error.body(), error.status);
    if (error instanceof HTTPException && error.status < 500) {
      const refused = new GatewayError(400, "the request could not be read: check the body and headers.");
      return c.json(refused.body(), 400);
    }
    log(`internal error on ${c.req.method} ${c.req.path}: ${describe(error)}`);
    const internal = new GatewayError(
      500,
      "the gateway hit an internal error; the detail is in the gateway log.",
      {
        code: "internal_error",
      },
    );
    return c.json(internal.body(), 500);
  });

  return {
    app,
    listen: (listenOptions) =>
      serveApp(app, {
        ...listenOptions,
        ...(options.serverLimits === undefined ? {} : { limits: options.serverLimits }),
      }),
    drain: (timeoutMs) => gateway.tracker.drain(timeoutMs),
    stats: () => ({ ...gateway.queue.stats(), draining: !gateway.tracker.accepting }),
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
