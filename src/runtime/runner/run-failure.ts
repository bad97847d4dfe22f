import { isToolsiftError } from "../../shared/errors/index.js";

/** Why a run did not complete, as its result and summary tell it. */
export type RunFailure = { code: string; message: string };

/** The failure of a run that used all its model requests without an answer. */
export function turnLimitFailure(maxTurns: number): RunFailure {
  return { code: "TURN_LIMIT", message: `The run reached its limit of ${maxTurns} model requests.` };
}

/** The failure of a run that threw: its timeout, its caller's cancellation, a ToolsiftError, or anything else. */
export function describeFailure(
  error: unknown,
  how: { timedOut: boolean; cancelled: unknown; runTimeoutMs: number },
): RunFailure {
  if (how.timedOut)
    return { code: "RUN_TIMEOUT", message: `The run exceeded its timeout of ${how.runTimeoutMs} ms.` };
  if (how.cancelled !== undefined) {
    // A caller that says why (the gateway: its client left, or it is shutting down) is quoted.
    const reason =
      isToolsiftError(how.cancelled) && how.cancelled.code === "CANCELLED" ? how.cancelled : undefined;
    return { code: "CANCELLED", message: reason?.message ?? "The run was cancelled by its caller." };
  }
  if (isToolsiftError(error)) return { code: error.code, message: error.message };
  return { code: "INTERNAL", message: "The run failed unexpectedly; see the gateway log." };
}
