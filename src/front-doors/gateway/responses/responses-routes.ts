import type { Hono } from "hono";
import { createDialectApp, postRunRoute, refuseOtherMethods } from "../dialect-app.js";
import type { GatewayContext } from "../gateway-context.js";
import { runTurn } from "../queue-run.js";
import type { TurnRequest } from "../request/turn-request.js";
import type { RunTarget } from "../resolve-run-target.js";
import { streamedAnswer } from "../run-stream-frames.js";
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
          new ResponsesStream(request, identity, (response) => remember(gateway, target, request, response)),
      );
    }
    const { target, result } = await runTurn(c, gateway, request);
    const response = toResponsesObject(result, request, {
      ...identity,
      output: responsesOutputItems(result, request.callForms),
    });
    remember(gateway, target, request, response);
    return c.json(response);
  });
  refuseOtherMethods(app, { path: "/", shown: RESPONSES_PATH, allow: "POST" });
  return app;
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
