import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { GatewayError, notFound } from "./gateway-error.js";
import type { InternalErrorReporter } from "./internal-error.js";

/** A dialect's error body for a gateway error: OpenAI's `{ error: … }`, Anthropic's `{ type: "error", … }`. */
export type ErrorBodyRenderer = (error: GatewayError) => object;

/**
 * A Hono app whose every failure is answered in one wire dialect's error shape: a `GatewayError` with its
 * status and headers, a request Hono could not read as a 400, anything else through `reportInternal` (500,
 * or 503 when out of descriptors; never a stack trace). Each dialect's routes are one such app, mounted with
 * `app.route()`, so an error is rendered by the app that served its route.
 */
export function createDialectApp(options: {
  renderError: ErrorBodyRenderer;
  reportInternal: InternalErrorReporter;
}): Hono {
  const { renderError, reportInternal } = options;
  const app = new Hono();
  app.onError((error, c) => {
    if (error instanceof HTTPException && error.status < 500) {
      const refused = new GatewayError(400, "the request could not be read: check the body and headers.");
      return c.json(renderError(refused), 400);
    }
    const answer =
      error instanceof GatewayError ? error : reportInternal(`on ${c.req.method} ${c.req.path}`, error);
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
