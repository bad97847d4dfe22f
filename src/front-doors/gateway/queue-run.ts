import type { Context, MiddlewareHandler } from "hono";
import type { ConversationItem } from "../../runtime/providers/index.js";
import type { RunRequest, RunResult, RunSignal } from "../../runtime/runner/index.js";
import { SessionQueueFullError } from "../../runtime/state/index.js";
import type { GatewayContext } from "./gateway-context.js";
import { GatewayError } from "./gateway-error.js";
import { MAX_BRANCH_HOPS } from "./limits.js";
import { afterLastAssistantItem, carriesHistory, reconcileHistory } from "./reconcile-history.js";
import { requireTurnItems, type TurnRequest } from "./request/turn-request.js";
import { type RunTarget, resolveRunTarget } from "./resolve-run-target.js";
import { cancelledBeforeStart, runCancellation } from "./run-cancellation.js";
import { runFailureError } from "./run-failure.js";
import { AGENT_HEADER, SESSION_HEADER } from "./run-target.js";
import { branchSessionKey, resendsWholeHistory } from "./session-hints.js";

/** `Retry-After` (seconds) sent with a 429 for a session whose queue is full. */
export const SESSION_BUSY_RETRY_AFTER_SECONDS = 5;

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
  /** The run itself, given its request and the run's one signal (`run.signal`), which it may abort. */
  work: (run: RunRequest, cancellation: RunSignal) => Promise<T>;
  onAdmitted?: (target: RunTarget) => void;
}): Promise<{ target: RunTarget; value: T }> {
  const { c, gateway, request } = options;
  const resolved = await resolveRunTarget(c, gateway, request);
  // A client that resends its whole history and rewrote it continues on a branch of its session.
  const target = resendsWholeHistory(resolved.sessionSource)
    ? await followBranches(gateway, resolved, request.items)
    : resolved;
  c.header(AGENT_HEADER, target.agentId);
  // The client's own name for its session, never the stored key (which carries its key's namespace).
  c.header(SESSION_HEADER, target.sessionName);
  gateway.hostedToolReporter.report(target.agentId, request.omittedHostedTools);
  // A drain may have begun while the body was read: checked again where the run is admitted.
  if (!gateway.tracker.accepting) throw shuttingDown();
  const sessionId = `${target.agentId}/${target.sessionKey}`;
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
          return options.work(toRunRequest(target, request, input, cancellation), cancellation);
        },
        // A client that leaves while its run waits behind the session's earlier runs: the run never starts.
        signal,
      ),
    );
    options.onAdmitted?.(target);
    return { target, value: await running };
  } catch (error) {
    if (error instanceof SessionQueueFullError) throw sessionBusy(c);
    if (signal.aborted && error === signal.reason) throw cancelledBeforeStart(error);
    throw error;
  } finally {
    cancellation.release();
  }
}

/** Runs one turn on its session, after the session's earlier runs; a failed run becomes an HTTP error. */
export async function runTurn(
  c: Context,
  gateway: GatewayContext,
  request: TurnRequest,
): Promise<{ target: RunTarget; result: RunResult }> {
  const { target, value: result } = await queueRun({
    c,
    gateway,
    request,
    work: (run) => gateway.runner.run(run),
  });
  if (result.status === "failed") throw runFailureError(result);
  return { target, result };
}

/** Route middleware: a 503 for a run request that arrives while the gateway drains, before its body is read. */
export function refuseWhileDraining(gateway: GatewayContext): MiddlewareHandler {
  return async (_c, next) => {
    if (!gateway.tracker.accepting) throw shuttingDown();
    await next();
  };
}

/** 503 for a run refused because the gateway is stopping. */
function shuttingDown(): GatewayError {
  return new GatewayError(
    503,
    "the gateway is shutting down and accepts no new runs: retry once it is back.",
    { code: "shutting_down" },
  );
}

/**
 * The new items of the turn, from the items sent and the session's log (`reconcileHistory`): what the log
 * already holds is not sent again, so the model sees its own earlier turns as the log has them. A repeated
 * request has no new items (the runner gives the last answer again, or goes on from the log). A client that
 * names its session and sends only new items is taken at its word; one whose resent history does not match
 * the log falls back to the items after its last assistant item (a 400 when there are none).
 */
async function turnInput(
  gateway: GatewayContext,
  target: RunTarget,
  request: TurnRequest,
): Promise<ConversationItem[]> {
  const items = request.items;
  if (!resendsWholeHistory(target.sessionSource) && !carriesHistory(items)) return items;
  const history = await gateway.sessions.read(target.agentId, target.sessionKey);
  const outcome = reconcileHistory(items, history);
  if (outcome.kind === "new") return outcome.items;
  if (outcome.kind === "repeat") return [];
  const input = afterLastAssistantItem(items);
  requireTurnItems(input, request.inputParam);
  return input;
}

/**
 * The session a conversation with resent history goes to: its own while its log agrees with the history
 * sent, else the branch named by the history sent through the first difference (`branchSessionKey`), and
 * so on within that branch, at most `MAX_BRANCH_HOPS` times. Each hop matches more of the history than the
 * last, so the same edited conversation always lands on the same branch.
 */
async function followBranches(
  gateway: GatewayContext,
  root: RunTarget,
  items: readonly ConversationItem[],
): Promise<RunTarget> {
  let target = root;
  for (let hop = 0; hop < MAX_BRANCH_HOPS; hop += 1) {
    const outcome = reconcileHistory(items, await gateway.sessions.read(target.agentId, target.sessionKey));
    if (outcome.kind !== "diverged") return target;
    target = {
      ...root,
      sessionKey: branchSessionKey(root.sessionKey, outcome.branch),
      sessionName: branchSessionKey(root.sessionName, outcome.branch),
    };
  }
  return target;
}

function toRunRequest(
  target: RunTarget,
  request: TurnRequest,
  input: ConversationItem[],
  runSignal: RunSignal,
): RunRequest {
  const run: RunRequest = {
    agentId: target.agentId,
    sessionKey: target.sessionKey,
    ...(target.keyId === undefined ? {} : { keyId: target.keyId }),
    input,
    signal: runSignal.signal,
    // The run's one signal: the runner arms the run timeout on it rather than making one of its own.
    runSignal,
  };
  if (request.instructions !== undefined) run.instructions = request.instructions;
  if (request.clientTools.length > 0) run.clientTools = request.clientTools;
  if (request.maxOutputTokens !== undefined) run.maxOutputTokens = request.maxOutputTokens;
  if (request.omittedHostedTools !== undefined) run.omittedHostedTools = request.omittedHostedTools;
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
