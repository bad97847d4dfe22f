import type { Context, Hono } from "hono";
import type { ConversationItem } from "../providers/index.js";
import type { RunRequest, RunResult } from "../runner/index.js";
import { toChatCompletionObject } from "./chat-completion-object.js";
import type { GatewayContext } from "./gateway-context.js";
import { GatewayError } from "./gateway-error.js";
import { SESSION_BUSY_RETRY_AFTER_SECONDS } from "./limits.js";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { readJsonBody } from "./read-json-body.js";
import { type RunTarget, resolveRunTarget } from "./resolve-run-target.js";
import { newId } from "./response-ids.js";
import { toResponsesObject } from "./responses-object.js";
import { cancelledBeforeStart, runCancellation } from "./run-cancellation.js";
import { runFailureError } from "./run-failure.js";
import { AGENT_HEADER, SESSION_HEADER } from "./run-target.js";
import { newTurnItems, requireTurnItems, type TurnRequest } from "./turn-request.js";

/** Registers `POST /v1/responses` and `POST /v1/chat/completions`: each request is one run. */
export function registerRunRoutes(app: Hono, gateway: GatewayContext): void {
  // The body is read and capped (413) by readJsonBody, which also turns a client hang-up into one log line.
  app.post("/v1/responses", refuseWhileDraining(gateway), async (c) => {
    const request = parseResponsesRequest(await readJsonBody(c, gateway.maxBodyBytes));
    const { target, result } = await runTurn(c, gateway, request);
    const id = newId("resp");
    const response = toResponsesObject(result, request, id);
    // `store: false` keeps the body out of GET /v1/responses/:id; the id still continues the session.
    gateway.responses.remember(id, target, request.store === false ? undefined : response);
    return c.json(response);
  });

  app.post("/v1/chat/completions", refuseWhileDraining(gateway), async (c) => {
    const request = parseChatRequest(await readJsonBody(c, gateway.maxBodyBytes));
    const { result } = await runTurn(c, gateway, request);
    return c.json(toChatCompletionObject(result));
  });
}

function refuseWhileDraining(gateway: GatewayContext) {
  return async (_c: Context, next: () => Promise<void>): Promise<void> => {
    if (!gateway.tracker.accepting) throw shuttingDown();
    await next();
  };
}

/** Runs one turn on its session, after the session's earlier runs; a failed run becomes an HTTP error. */
async function runTurn(
  c: Context,
  gateway: GatewayContext,
  request: TurnRequest,
): Promise<{ target: RunTarget; result: RunResult }> {
  const target = resolveRunTarget(c, gateway, request);
  c.header(AGENT_HEADER, target.agentId);
  c.header(SESSION_HEADER, target.sessionKey);
  // A drain may have begun while the body was read: checked again where the run is admitted.
  if (!gateway.tracker.accepting) throw shuttingDown();
  const sessionId = `${target.agentId}/${target.sessionKey}`;
  if (!gateway.queue.admits(sessionId)) throw sessionBusy(c);
  // Aborted when the client disconnects or a drain runs out of time; released once the run settled.
  const cancellation = runCancellation(c, gateway.tracker.signal);
  const { signal } = cancellation;
  let result: RunResult;
  try {
    result = await gateway.tracker.track(
      gateway.queue.run(
        sessionId,
        async () => {
          const input = await turnInput(gateway, target, request);
          if (signal.aborted) throw cancelledBeforeStart(signal.reason);
          return gateway.runner.run(toRunRequest(target, request, input, signal));
        },
        // A client that leaves while its run waits behind the session's earlier runs: the run never starts.
        signal,
      ),
    );
  } catch (error) {
    if (signal.aborted && error === signal.reason) throw cancelledBeforeStart(error);
    throw error;
  } finally {
    cancellation.release();
  }
  if (result.status === "failed") throw runFailureError(result);
  return { target, result };
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
  const run: RunRequest = { agentId: target.agentId, sessionKey: target.sessionKey, input, signal };
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

function shuttingDown(): GatewayError {
  return new GatewayError(
    503,
    "the gateway is shutting down and accepts no new runs: retry once it is back.",
    {
      code: "shutting_down",
    },
  );
}
