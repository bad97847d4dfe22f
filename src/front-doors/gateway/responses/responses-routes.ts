import type { Hono } from "hono";
import { createDialectApp, postRunRoute, refuseOtherMethods } from "../dialect-app.js";
import type { GatewayContext } from "../gateway-context.js";
import { runTurn } from "../queue-run.js";
import type { TurnRequest } from "../request/turn-request.js";
import type { RunTarget } from "../resolve-run-target.js";
import { streamedAnswer } from "../run-stream-frames.js";
import { SESSION_HEADER } from "../run-target.js";
import { readSessionHints } from "../session-hints.js";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { newResponseIdentity, responsesOutputItems, toResponsesObject } from "./responses-object.js";
import { ResponsesStream } from "./responses-stream.js";

/** Where the Responses API is mounted. */
export const RESPONSES_PATH = "/v1/responses";

/**
 * `POST /v1/responses` (OpenAI Responses), mounted at `RESPONSES_PATH`: each request is one run, answered
 * whole or, with `stream: true`, as Responses semantic events (`responses-stream.ts`); the response is
 * remembered for `previous_response_id` and `GET /v1/responses/:id`. Errors are OpenAI error objects.
 */
export function createResponsesRoutes(gateway: GatewayContext): Hono {
  const app = createDialectApp({ reportInternal: gateway.reportInternal });
  postRunRoute(app, gateway, async (c, body) => {
    const request = {
      ...parseResponsesRequest(body, { hostedTools: gateway.hostedTools }),
      sessionHints: readSessionHints(c.req, body),
    };
    const identity = newResponseIdentity();
    if (request.stream === true) {
      return streamedAnswer(
        c,
        gateway,
        request,
        (target) =>
          new ResponsesStream(request, identity, (response) => {
            void remember(gateway, target, request, response);
          }),
      );
    }
    const { target, result } = await runTurn(c, gateway, request);
    const response = toResponsesObject(result, request, {
      ...identity,
      output: responsesOutputItems(result, request.callForms),
    });
    await remember(gateway, target, request, response);
    return c.json(response);
  });
  refuseOtherMethods(app, { path: "/", shown: RESPONSES_PATH, allow: "POST" });
  return app;
}

/**
 * Keeps a response for `previous_response_id` and, unless `store: false`, for `GET /v1/responses/:id`. The
 * run is over and its answer is sent either way: a store that cannot keep it (the database went away after
 * the run) is logged, and the id then only fails to continue the session (the session header still does).
 */
async function remember(
  gateway: GatewayContext,
  target: RunTarget,
  request: TurnRequest,
  response: { id: string },
): Promise<void> {
  // `store: false` keeps the body out of GET /v1/responses/:id; the id still continues the session.
  const origin = { agentId: target.agentId, sessionKey: target.sessionKey };
  try {
    await gateway.responses.remember(response.id, origin, request.store === false ? undefined : response);
  } catch (error) {
    gateway.log(
      `response ${response.id} was answered but not stored (${error instanceof Error ? error.message : String(error)}): ` +
        `previous_response_id cannot continue it; ${SESSION_HEADER} can.`,
    );
  }
}
