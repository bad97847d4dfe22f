import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { GatewayError } from "./gateway-error.js";

/** `code` of the error a request gets when its client closed the connection before the body arrived. */
export const CLIENT_ABORTED_CODE = "client_aborted";

/**
 * The error for a body its client stopped sending (closed the connection, or was cut by the request
 * timeout). Nobody reads the answer; the request log shows it as one `… aborted by client` line.
 */
export function clientAborted(): GatewayError {
  return new GatewayError(400, "the client closed the connection before the request body arrived.", {
    code: CLIENT_ABORTED_CODE,
  });
}

/** True for the error `clientAborted` makes. */
export function isClientAborted(error: unknown): boolean {
  return error instanceof GatewayError && error.apiCode === CLIENT_ABORTED_CODE;
}

/**
 * True when the request's connection is gone before its body was complete: what a failed body read means
 * when the client hung up (or the server's request timeout cut it), as opposed to a bug.
 */
export function requestBodyCut(c: Context): boolean {
  if (c.req.raw.signal.aborted) return true;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.errored !== null);
}
