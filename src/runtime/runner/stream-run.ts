import { ToolsiftError } from "../../shared/errors/index.js";
import type { RunEvent } from "../run-surface/index.js";
import { createRunSignal } from "./run-signal.js";
import type { Runner, RunRequest } from "./types.js";

/**
 * One run as the events it emits, in order, ending with `run-finish` (the result `runner.run` returns): the
 * source a streaming front door adapts to its wire format. A consumer that stops early (`break`, `return`)
 * cancels the run, as a client that disconnects does; the run's caller signal still cancels it too.
 */
export async function* streamRun(
  runner: Runner,
  request: Omit<RunRequest, "onEvent">,
): AsyncGenerator<RunEvent> {
  const left = new AbortController();
  const signal = createRunSignal({
    sources: [
      request.signal,
      { signal: left.signal, reason: new ToolsiftError("CANCELLED", "The stream's reader stopped reading.") },
    ],
  });
  const queue: RunEvent[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let failure: { error: unknown } | undefined;
  let finishEmitted = false;
  const push = (event: RunEvent) => {
    if (event.type === "run-finish") finishEmitted = true;
    queue.push(event);
    wake?.();
  };
  const running = runner.run({ ...request, signal: signal.signal, onEvent: push }).then(
    (result) => {
      // A runner that ended without its last event (a fake, a refusal) still ends the stream with it.
      if (!finishEmitted) push({ type: "run-finish", result });
      finished = true;
      wake?.();
    },
    (error: unknown) => {
      failure = { error };
      finished = true;
      wake?.();
    },
  );
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
      wake = undefined;
    }
    if (failure) throw failure.error;
  } finally {
    if (!finished) left.abort();
    await running;
    signal.release();
  }
}
