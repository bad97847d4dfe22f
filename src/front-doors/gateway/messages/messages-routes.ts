import type { Hono } from "hono";
import { toAnthropicErrorBody } from "../../../runtime/wire/index.js";
import { createDialectApp, noRoute, postRunRoute, refuseOtherMethods } from "../dialect-app.js";
import type { GatewayContext } from "../gateway-context.js";
import { runTurn } from "../queue-run.js";
import { newId } from "../response-ids.js";
import { streamedAnswer } from "../run-stream-frames.js";
import { readSessionHints } from "../session-hints.js";
import { registerCountTokensRoute } from "./count-tokens-route.js";
import { toMessagesObject } from "./messages-object.js";
import { COUNT_TOKENS_PATH, MESSAGES_PATH } from "./messages-paths.js";
import { MessagesStream } from "./messages-stream.js";
import { parseMessagesRequest } from "./parse-messages-request.js";

/**
 * The Anthropic Messages API, mounted at `MESSAGES_PATH`: `POST /v1/messages` (one run, answered whole or,
 * with `stream: true`, as `message_start` … `message_stop`, `messages-stream.ts`) and
 * `POST /v1/messages/count_tokens`. Every error under the path, an unknown path under it included, is in
 * Anthropic's shape (`src/runtime/wire`).
 */
export function createMessagesRoutes(gateway: GatewayContext): Hono {
  const app = createDialectApp({
    renderError: (error) => toAnthropicErrorBody(error.status, error.message),
    reportInternal: gateway.reportInternal,
  });
  postRunRoute(app, gateway, async (c, body) => {
    const request = {
      ...parseMessagesRequest(body, gateway.hostedTools),
      sessionHints: readSessionHints(c.req, body),
    };
    const id = newId("msg");
    if (request.stream === true) return streamedAnswer(c, gateway, request, () => new MessagesStream(id));
    const { result } = await runTurn(c, gateway, request);
    return c.json(toMessagesObject(result, id));
  });
  registerCountTokensRoute(app, gateway, "/count_tokens");
  refuseOtherMethods(app, { path: "/", shown: MESSAGES_PATH, allow: "POST" });
  refuseOtherMethods(app, { path: "/count_tokens", shown: COUNT_TOKENS_PATH, allow: "POST" });
  app.all("/*", (c) => {
    throw noRoute(c.req.method, c.req.path);
  });
  return app;
}
