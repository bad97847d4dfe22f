import type { Context } from "hono";
import type { RunEvent } from "../../runtime/run-surface/index.js";
import type { GatewayContext } from "./gateway-context.js";
import { GatewayError } from "./gateway-error.js";
import type { InternalErrorReporter } from "./internal-error.js";
import { type OpenRunStream, openRunStream } from "./open-run-stream.js";
import type { TurnRequest } from "./request/turn-request.js";
import type { RunTarget } from "./resolve-run-target.js";
import { type SseFrame, sseResponse } from "./sse.js";

/** What a streaming front door implements: run events in, its wire format's frames out. */
export interface RunStreamAdapter {
  /** The frames for one event; `run-finish` gives the terminal frames. */
  onEvent(event: RunEvent): SseFrame[];
  /** The terminal frames for a run that ended with an exception (none once the stream ended). */
  onError(error: GatewayError): SseFrame[];
}

/**
 * The streamed answer to a run request: the run is opened (refusals before its first event are thrown, so
 * they are answered as JSON errors), then its events are sent through `adapterFor(target)` as they come.
 */
export async function streamedAnswer(
  c: Context,
  gateway: GatewayContext,
  request: TurnRequest,
  adapterFor: (target: RunTarget) => RunStreamAdapter,
): Promise<Response> {
  const stream = await openRunStream(c, gateway, request);
  return sseResponse(c, runStreamFrames(stream, adapterFor(stream.target), gateway.reportInternal));
}

/**
 * The frames of one streamed run, through `adapter`, as the events arrive. A runner that throws mid-run
 * ends the stream with the adapter's error frames (the detail goes to the log, never to the client), so no
 * stream is left without its end.
 */
async function* runStreamFrames(
  stream: OpenRunStream,
  adapter: RunStreamAdapter,
  reportInternal: InternalErrorReporter,
): AsyncGenerator<SseFrame> {
  yield* adapter.onEvent(stream.first);
  try {
    // A reader that stops (the client left) returns this generator, which returns `rest`: the run is cancelled.
    for await (const event of stream.rest) yield* adapter.onEvent(event);
  } catch (error) {
    yield* adapter.onError(
      error instanceof GatewayError ? error : reportInternal("in a streamed run", error),
    );
    return;
  }
  // streamRun always ends with run-finish; a stream that did not is closed with an error all the same.
  yield* adapter.onError(internalError());
}

function internalError(): GatewayError {
  return new GatewayError(500, "the gateway hit an internal error; the detail is in the gateway log.", {
    code: "internal_error",
  });
}
