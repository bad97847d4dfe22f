import type { Context } from "hono";
import type { RunEvent } from "../../runtime/run-surface/index.js";
import { startRunStream } from "../../runtime/runner/index.js";
import type { GatewayContext } from "./gateway-context.js";
import { queueRun } from "./queue-run.js";
import type { TurnRequest } from "./request/turn-request.js";
import type { RunTarget } from "./resolve-run-target.js";
import { runFailureError } from "./run-failure.js";

/** A run whose events are being streamed: the first event, and the rest as the reader pulls them. */
export type OpenRunStream = { target: RunTarget; first: RunEvent; rest: AsyncGenerator<RunEvent> };

/**
 * Starts a run for a streamed answer and waits for its first event before anything is sent, so a request
 * refused before the run started (400, 404, 429, 503, a queued run cancelled, a run refused before it began:
 * its first event is a failed `run-finish`) is answered with the usual JSON error and status, exactly as
 * a whole answer would be. `rest` is the run's own event stream (`startRunStream`): a runner that throws ends
 * it with its error, and a reader that stops (`return()`) aborts the run's one signal. The session's next run
 * waits for this run to end, not for the reader.
 */
export async function openRunStream(
  c: Context,
  gateway: GatewayContext,
  request: TurnRequest,
): Promise<OpenRunStream> {
  let target: RunTarget | undefined;
  const events = await new Promise<AsyncGenerator<RunEvent>>((resolve, reject) => {
    queueRun({
      c,
      gateway,
      request,
      onAdmitted: (admitted) => {
        target = admitted;
      },
      work: (run, cancellation) => {
        const stream = startRunStream(gateway.runner, run, cancellation);
        resolve(stream.events);
        return stream.settled;
      },
    }).then(() => reject(new Error("the run ended without its run-finish event")), reject);
  });
  const first = await events.next();
  if (first.done === true || target === undefined) {
    throw new Error("the run ended without its run-finish event");
  }
  const event = first.value;
  if (event.type === "run-finish" && event.result.status === "failed") {
    await events.return(undefined);
    throw runFailureError(event.result);
  }
  return { target, first: event, rest: events };
}
