import type { Context, Hono } from "hono";
import type { RunResult } from "../../runtime/runner/index.js";
import { MESSAGES_PATH } from "./anthropic-error.js";
import { toChatCompletionObject } from "./chat-completion-object.js";
import { ChatStream } from "./chat-stream.js";
import type { GatewayContext } from "./gateway-context.js";
import { toMessagesObject } from "./messages-object.js";
import { MessagesStream } from "./messages-stream.js";
import { openRunStream } from "./open-run-stream.js";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { queueRun, shuttingDown } from "./queue-run.js";
import { readJsonBody } from "./read-json-body.js";
import type { RunTarget } from "./resolve-run-target.js";
import { newId } from "./response-ids.js";
import { newResponseIdentity, responsesOutputItems, toResponsesObject } from "./responses-object.js";
import { ResponsesStream } from "./responses-stream.js";
import { runFailureError } from "./run-failure.js";
import { runStreamFrames } from "./run-stream-frames.js";
import { readSessionHints } from "./session-hints.js";
import { sseResponse } from "./sse.js";
import type { TurnRequest } from "./turn-request.js";

/**
 * Registers `POST /v1/responses`, `POST /v1/chat/completions` and `POST /v1/messages` (Anthropic): each
 * request is one run, answered whole or, with `stream: true`, as server-sent events translated from the
 * run's events (`responses-stream.ts`, `chat-stream.ts`, `messages-stream.ts`). Both ways refuse alike before
 * anything is sent (`queue-run.ts`, `open-run-stream.ts`).
 */
export function registerRunRoutes(app: Hono, gateway: GatewayContext): void {
  // The body is read and capped (413) by readJsonBody, which also turns a client hang-up into one log line.
  app.post("/v1/responses", refuseWhileDraining(gateway), async (c) => {
    const body = await readJsonBody(c, gateway.maxBodyBytes);
    const request = {
      ...parseResponsesRequest(body, { hostedTools: gateway.hostedTools }),
      sessionHints: readSessionHints(c.req, body),
    };
    const identity = newResponseIdentity();
    if (request.stream === true) {
      const stream = await openRunStream(c, gateway, request);
      const adapter = new ResponsesStream(request, identity, (response) =>
        remember(gateway, stream.target, request, response),
      );
      return sseResponse(c, runStreamFrames(stream, adapter, gateway.reportInternal));
    }
    const { target, result } = await runTurn(c, gateway, request);
    const response = toResponsesObject(result, request, {
      ...identity,
      output: responsesOutputItems(result, request.callForms),
    });
    remember(gateway, target, request, response);
    return c.json(response);
  });

  app.post("/v1/chat/completions", refuseWhileDraining(gateway), async (c) => {
    const body = await readJsonBody(c, gateway.maxBodyBytes);
    const request = { ...parseChatRequest(body), sessionHints: readSessionHints(c.req, body) };
    if (request.stream === true) {
      const stream = await openRunStream(c, gateway, request);
      const adapter = new ChatStream({ includeUsage: request.includeUsage === true });
      return sseResponse(c, runStreamFrames(stream, adapter, gateway.reportInternal));
    }
    const { result } = await runTurn(c, gateway, request);
    return c.json(toChatCompletionObject(result));
  });

  // Errors on this path are rendered in Anthropic's shape (`anthropic-error.ts`, wired in create-gateway.ts).
  app.post(MESSAGES_PATH, refuseWhileDraining(gateway), async (c) => {
    const body = await readJsonBody(c, gateway.maxBodyBytes);
    const request = {
      ...parseMessagesRequest(body, gateway.hostedTools),
      sessionHints: readSessionHints(c.req, body),
    };
    const id = newId("msg");
    if (request.stream === true) {
      const stream = await openRunStream(c, gateway, request);
      return sseResponse(c, runStreamFrames(stream, new MessagesStream(id), gateway.reportInternal));
    }
    const { result } = await runTurn(c, gateway, request);
    return c.json(toMessagesObject(result, id));
  });
}

/** Keeps a response for `previous_response_id` and, unless `store: false`, for `GET /v1/responses/:id`. */
function remember(
  gateway: GatewayContext,
  target: RunTarget,
  request: TurnRequest,
  response: { id: string },
): void {
  // `store: false` keeps the body out of GET /v1/responses/:id; the id still continues the session.
  const origin = { agentId: target.agentId, sessionKey: target.sessionKey };
  gateway.responses.remember(response.id, origin, request.store === false ? undefined : response);
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
  const { target, value: result } = await queueRun({
    c,
    gateway,
    request,
    work: (run) => gateway.runner.run(run),
  });
  if (result.status === "failed") throw runFailureError(result);
  return { target, result };
}
