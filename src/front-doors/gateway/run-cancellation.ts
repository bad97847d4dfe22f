import type { Context } from "hono";
import { createRunSignal, type RunSignal } from "../../runtime/runner/index.js";
import { isToolsiftError, ToolsiftError } from "../../shared/errors/index.js";
import { GatewayError } from "./gateway-error.js";

/** Why the run of a client that disconnected is stopped (the runner writes it into the run's summary). */
const CLIENT_LEFT = new ToolsiftError("CANCELLED", "The client disconnected before the answer was sent.");

/**
 * The signal of one HTTP run, aborted when its client disconnects before the response is sent or when a
 * drain runs out of time (`drain`). `@hono/node-server` aborts `c.req.raw.signal` when Node's
 * `ServerResponse` closes before it finished (the client hung up); for a response already written it never
 * fires. Call `release()` once the request is answered: the long-lived drain signal then holds nothing of it.
 */
export function runCancellation(c: Context, drain: AbortSignal): RunSignal {
  return createRunSignal({ sources: [{ signal: c.req.raw.signal, reason: CLIENT_LEFT }, drain] });
}

/**
 * The error for a run that never started because its signal aborted while it waited behind its session's
 * earlier runs (its client left, or the gateway is stopping). Nobody may be there to read the 503; the
 * request log shows it.
 */
export function cancelledBeforeStart(reason: unknown): GatewayError {
  const why = isToolsiftError(reason) ? reason.message : "The run was cancelled.";
  return new GatewayError(503, `${why} The run had not started: nothing ran.`, { code: "cancelled" });
}
