import type { Hono } from "hono";
import { createDialectApp, postRunRoute, refuseOtherMethods } from "../dialect-app.js";
import type { GatewayContext } from "../gateway-context.js";
import { runTurn } from "../queue-run.js";
import { streamedAnswer } from "../run-stream-frames.js";
import { readSessionHints } from "../session-hints.js";
import { toChatCompletionObject } from "./chat-completion-object.js";
import { ChatStream } from "./chat-stream.js";
import { parseChatRequest } from "./parse-chat-request.js";

/** Where the Chat Completions API is mounted. */
export const CHAT_COMPLETIONS_PATH = "/v1/chat/completions";

/**
 * `POST /v1/chat/completions` (OpenAI Chat Completions), mounted at `CHAT_COMPLETIONS_PATH`: each request is
 * one run, answered whole or, with `stream: true`, as `chat.completion.chunk`s ending in `data: [DONE]`
 * (`chat-stream.ts`). Errors are OpenAI error objects.
 */
export function createChatRoutes(gateway: GatewayContext): Hono {
  const app = createDialectApp({ reportInternal: gateway.reportInternal });
  postRunRoute(app, gateway, async (c, body) => {
    const request = { ...parseChatRequest(body), sessionHints: readSessionHints(c.req, body) };
    if (request.stream === true) {
      return streamedAnswer(
        c,
        gateway,
        request,
        () => new ChatStream({ includeUsage: request.includeUsage === true }),
      );
    }
    const { result } = await runTurn(c, gateway, request);
    return c.json(toChatCompletionObject(result));
  });
  refuseOtherMethods(app, { path: "/", shown: CHAT_COMPLETIONS_PATH, allow: "POST" });
  return app;
}
