import type { Context } from "hono";
import type { RunEvent } from "../../runtime/run-surface/index.js";
import { streamRun } from "../../runtime/runner/index.js";
import { EventChannel } from "./event-channel.js";
import type { GatewayContext } from "./gateway-context.js";
import { queueRun } from "./queue-run.js";
import type { RunTarget } from "./resolve-run-target.js";
import { runFailureError } from "./run-failure.js";
import type { TurnRequest } from "./turn-request.js";

/** A run whose events are being streamed: the first event, and the rest as they come. */
export type OpenRunStream = { target: RunTarget; first: RunEvent; rest: AsyncIterator<RunEvent> };

/**
 * Starts a run for a streamed answer and waits for its first event before anything is sent, so a request
 * refused before the run started (400, 404, 429, 503, a queued run cancelled, a run refused before it began:
 * its first event is a failed `run-finish`) is answered with the usual JSON error and status, exactly as
 * a whole answer would be. After that, the events arrive as the run emits them (`streamRun`); a runner that
 * throws ends `rest` with its error.
 */
export async function openRunStream(
  c: Context,
  gateway: GatewayContext,
  request: TurnRequest,
): Promise<OpenRunStream> {
  const channel = new EventChannel<RunEvent>();
  let target: RunTarget | undefined;
  queueRun({
    c,
    gateway,
    request,
    onAdmitted: (admitted) => {
      target = admitted;
    },
    work: async (run) => {
      for await (const event of streamRun(gateway.runner, run)) channel.push(event);
    },
  }).then(
    () => channel.end(),
    (error: unknown) => channel.fail(error),
  );
  const first = await channel.next();
  if (first.done === true || target === undefined) {
    throw new Error("the run ended without its run-finish event");
  }
  const event = first.value;
  if (event.type === "run-finish" && event.result.status === "failed") throw runFailureError(event.result);
  return { target, first: event, rest: channel };
}
