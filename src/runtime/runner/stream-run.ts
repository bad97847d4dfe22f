import { ToolsiftError } from "../../shared/errors/index.js";
import type { RunEvent } from "../run-surface/index.js";
import { createRunSignal, type RunSignal } from "./run-signal.js";
import type { Runner, RunRequest } from "./types.js";

/** A started run as the events it emits, and when the run itself is over. */
export type RunEventStream = {
  /**
   * The events in order, ending with `run-finish` (the result `runner.run` returns). A reader that stops
   * early (`break`, `return`) aborts the run's signal and waits for the run to end.
   */
  events: AsyncGenerator<RunEvent>;
  /** Settles (never rejects) when the run ended, however far the reader got. */
  settled: Promise<void>;
};

/**
 * Starts one run and returns its events: the source a streaming front door adapts to its wire format. The
 * events wait in one queue until read. The run's one signal is `run` (the caller's, which the caller releases),
 * or else one made from `request.signal`; the runner arms the run timeout on it, and a reader that stops early
 * aborts it.
 */
export function startRunStream(
  runner: Runner,
  request: Omit<RunRequest, "onEvent">,
  run?: RunSignal,
): RunEventStream {
  const signal = run ?? createRunSignal({ sources: [request.signal] });
  const queue: RunEvent[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let failure: { error: unknown } | undefined;
  let finishEmitted = false;
  const wakeReader = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  const push = (event: RunEvent) => {
    if (event.type === "run-finish") finishEmitted = true;
    queue.push(event);
    wakeReader();
  };
  const finish = () => {
    finished = true;
    if (run === undefined) signal.release();
    wakeReader();
  };
  const settled = runner.run({ ...request, signal: signal.signal, runSignal: signal, onEvent: push }).then(
    (result) => {
      // A runner that ended without its last event (a fake, a refusal) still ends the stream with it.
      if (!finishEmitted) push({ type: "run-finish", result });
      finish();
    },
    (error: unknown) => {
      failure = { error };
      finish();
    },
  );
  async function* events(): AsyncGenerator<RunEvent> {
    try {
      while (true) {
        const event = queue.shift();
        if (event) {
          yield event;
          continue;
        }
        if (finished) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      if (failure) throw failure.error;
    } finally {
      if (!finished) signal.abort(new ToolsiftError("CANCELLED", "The stream's reader stopped reading."));
      await settled;
    }
  }
  return { events: events(), settled };
}

/** `startRunStream`'s events alone: the run, cancelled by the request's signal or a reader that stops. */
export function streamRun(runner: Runner, request: Omit<RunRequest, "onEvent">): AsyncGenerator<RunEvent> {
  return startRunStream(runner, request).events;
}
