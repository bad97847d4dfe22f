import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { isToolsiftError } from "../../shared/errors/index.js";
import { requireAccess } from "./caller-access.js";
import type { GatewayContext } from "./gateway-context.js";
import { GatewayError, notFound } from "./gateway-error.js";
import type { InternalErrorReporter } from "./internal-error.js";
import { refuseWhileDraining } from "./queue-run.js";
import { readJsonBody } from "./request/read-json-body.js";
import { storageUnavailableError } from "./run-failure.js";

/** A dialect's error body for a gateway error: OpenAI's `{ error: … }`, Anthropic's `{ type: "error", … }`. */
export type ErrorBodyRenderer = (error: GatewayError) => object;

/**
 * A Hono app whose every failure is answered in one wire dialect's error shape: a `GatewayError` with its
 * status and headers, a request Hono could not read as a 400, anything else through `reportInternal` (500,
 * or 503 when out of descriptors; never a stack trace). Each dialect's routes are one such app, mounted with
 * `app.route()`, so an error is rendered by the app that served its route.
 */
export function createDialectApp(options: {
  /** Default: the OpenAI error object (`GatewayError.body()`). */
  renderError?: ErrorBodyRenderer;
  reportInternal: InternalErrorReporter;
}): Hono {
  const { renderError = (error) => error.body(), reportInternal } = options;
  const app = new Hono();
  app.onError((error, c) => {
    if (error instanceof HTTPException && error.status < 500) {
      const refused = new GatewayError(400, "the request could not be read: check the body and headers.");
      return c.json(renderError(refused), 400);
    }
    const answer =
      error instanceof GatewayError
        ? error
        : isToolsiftError(error) && error.code === "STORAGE_UNAVAILABLE"
          ? storageUnavailableError(error.message)
          : reportInternal(`on ${c.req.method} ${c.req.path}`, error);
    for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
    return c.json(renderError(answer), answer.status);
  });
  return app;
}

/**
 * Answers every other method on `route` (relative to `app`) with 405 and an `Allow` header; `shown` is the
 * path the message names. Register it after the route's own handlers.
 */
export function refuseOtherMethods(app: Hono, route: { path: string; shown: string; allow: string }): void {
  app.all(route.path, (c) => {
    c.header("Allow", route.allow);
    throw new GatewayError(405, `${c.req.method} is not allowed on ${route.shown}: use ${route.allow}.`, {
      type: "invalid_request_error",
      code: "method_not_allowed",
    });
  });
}

/** Longest request path quoted back in a 404 message. */
const SHOWN_PATH_CHARS = 200;

/** The 404 of a path no route serves, quoting the method and (the start of) the path. */
export function noRoute(method: string, path: string): GatewayError {
  return notFound(
    `no route ${method} ${path.slice(0, SHOWN_PATH_CHARS)}: see the gateway routes in the toolsift docs.`,
  );
}

/**
 * A dialect's run route, `POST /` of its app: it needs the `runs` scope, refuses while the gateway drains,
 * and reads the JSON body (capped, 413; a client hang-up is one log line) before `answer` parses and runs it.
 */
export function postRunRoute(
  app: Hono,
  gateway: GatewayContext,
  answer: (c: Context, body: unknown) => Promise<Response>,
): void {
  app.post("/", requireAccess("runs"), refuseWhileDraining(gateway), async (c) =>
    answer(c, await readJsonBody(c, gateway.maxBodyBytes)),
  );
}
