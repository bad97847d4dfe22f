import type { Context } from "hono";
import type { ConversationItem } from "../providers/index.js";
import type { RunRequest } from "../runner/index.js";
import type { GatewayContext } from "./gateway-context.js";
import { GatewayError } from "./gateway-error.js";
import { SESSION_BUSY_RETRY_AFTER_SECONDS } from "./limits.js";
import { type RunTarget, resolveRunTarget } from "./resolve-run-target.js";
import { cancelledBeforeStart, runCancellation } from "./run-cancellation.js";
import { AGENT_HEADER, SESSION_HEADER } from "./run-target.js";
import { newTurnItems, requireTurnItems, type TurnRequest } from "./turn-request.js";

/**
 * Admits one run request and runs `work` with its `RunRequest` on the session's queue, after the session's
 * earlier runs: the agent and session headers are set, a draining gateway is a 503, a full session queue a
 * 429 (both before anything is queued). The run's signal aborts when the client disconnects or a drain runs
 * out of time; a run whose signal aborted while it waited never starts (503 `cancelled`). `onAdmitted` sees
 * the target once the run is admitted. Whole and streamed answers share this, so they refuse alike.
 */
export async function queueRun<T>(options: {
  c: Context;
  gateway: GatewayContext;
  request: TurnRequest;
  work: (run: RunRequest) => Promise<T>;
  onAdmitted?: (target: RunTarget) => void;
}): Promise<{ target: RunTarget; value: T }> {
  const { c, gateway, request } = options;
  const target = resolveRunTarget(c, gateway, request);
  c.header(AGENT_HEADER, target.agentId);
  // The client's own name for its session, never the stored key (which carries its key's namespace).
  c.header(SESSION_HEADER, target.sessionName);
  // A drain may have begun while the body was read: checked again where the run is admitted.
  if (!gateway.tracker.accepting) throw shuttingDown();
  const sessionId = `${target.agentId}/${target.sessionKey}`;
  if (!gateway.queue.admits(sessionId)) throw sessionBusy(c);
  // Aborted when the client disconnects or a drain runs out of time; released once the run settled.
  const cancellation = runCancellation(c, gateway.tracker.signal);
  const { signal } = cancellation;
  try {
    const running = gateway.tracker.track(
      gateway.queue.run(
        sessionId,
        async () => {
          const input = await turnInput(gateway, target, request);
          if (signal.aborted) throw cancelledBeforeStart(signal.reason);
          return options.work(toRunRequest(target, request, input, signal));
        },
        // A client that leaves while its run waits behind the session's earlier runs: the run never starts.
        signal,
      ),
    );
    options.onAdmitted?.(target);
    return { target, value: await running };
  } catch (error) {
    if (signal.aborted && error === signal.reason) throw cancelledBeforeStart(error);
    throw error;
  } finally {
    cancellation.release();
  }
}

/** 503 for a run refused because the gateway is stopping. */
export function shuttingDown(): GatewayError {
  return new GatewayError(
    503,
    "the gateway is shutting down and accepts no new runs: retry once it is back.",
    { code: "shutting_down" },
  );
}

/** The new items of the turn: history a client resent is dropped when the session already holds it. */
async function turnInput(
  gateway: GatewayContext,
  target: RunTarget,
  request: TurnRequest,
): Promise<ConversationItem[]> {
  const items = request.items;
  const resendsHistory = items.some(
    (item) => item.type === "function_call" || (item.type === "message" && item.role === "assistant"),
  );
  if (!resendsHistory) return items;
  const history = await gateway.sessions.read(target.agentId, target.sessionKey);
  const input = newTurnItems(items, history.length > 0);
  requireTurnItems(input, request.inputParam);
  return input;
}

function toRunRequest(
  target: RunTarget,
  request: TurnRequest,
  input: ConversationItem[],
  signal: AbortSignal,
): RunRequest {
  const run: RunRequest = {
    agentId: target.agentId,
    sessionKey: target.sessionKey,
    ...(target.keyId === undefined ? {} : { keyId: target.keyId }),
    input,
    signal,
  };
  if (request.instructions !== undefined) run.instructions = request.instructions;
  if (request.clientTools.length > 0) run.clientTools = request.clientTools;
  if (request.maxOutputTokens !== undefined) run.maxOutputTokens = request.maxOutputTokens;
  return run;
}

/** 429 for a session whose queue is full (`gateway.maxQueuedPerSession` runs already wait). */
function sessionBusy(c: Context): GatewayError {
  c.header("Retry-After", String(SESSION_BUSY_RETRY_AFTER_SECONDS));
  return new GatewayError(
    429,
    "this session already has as many runs waiting as the gateway allows (gateway.maxQueuedPerSession): wait for its earlier runs to finish, then retry.",
    { code: "session_busy" },
  );
}
