import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { GatewayError } from "./gateway-error.js";

/** `code` of the error a request gets when its client closed the connection before the body arrived. */
export const CLIENT_ABORTED_CODE = "client_aborted";
/** `code` of the error a request gets when the server's request timeout cut a body still arriving. */
export const BODY_TIMEOUT_CODE = "request_timeout";

/** Why a request body stopped arriving: the client hung up, or the server's request timeout cut it. */
export type BodyCut = "client" | "timeout";

/**
 * The error for a body that stopped arriving. Nobody reads the answer (the connection is gone); the request
 * log shows it as one line (`abortedRequestNote`), with no stack.
 */
export function clientAborted(cut: BodyCut): GatewayError {
  return cut === "timeout"
    ? new GatewayError(400, "the request body did not arrive within the server's request timeout.", {
        code: BODY_TIMEOUT_CODE,
      })
    : new GatewayError(400, "the client closed the connection before the request body arrived.", {
        code: CLIENT_ABORTED_CODE,
      });
}

/** The request log's words for an error `clientAborted` made (`aborted by client`); undefined for others. */
export function abortedRequestNote(error: unknown): string | undefined {
  if (!(error instanceof GatewayError)) return undefined;
  if (error.apiCode === CLIENT_ABORTED_CODE) return "aborted by client";
  if (error.apiCode === BODY_TIMEOUT_CODE) return "cut by the request timeout before its body arrived";
  return undefined;
}

/**
 * Why the request's connection is gone before its body was complete, or undefined when it is not: tells a
 * failed body read caused by the client (or the request timeout) from a bug.
 */
export function requestBodyCut(c: Context): BodyCut | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const timedOut =
    (incoming?.socket?.errored as NodeJS.ErrnoException | null | undefined)?.code ===
    "ERR_HTTP_REQUEST_TIMEOUT";
  if (timedOut) return "timeout";
  if (c.req.raw.signal.aborted) return "client";
  if (incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.errored !== null)) {
    return "client";
  }
  return undefined;
}
