import type { Hono } from "hono";
import { isToolsiftError } from "../../../shared/errors/index.js";
import { requireAccess } from "../caller-access.js";
import type { GatewayContext } from "../gateway-context.js";
import { GatewayError, invalidRequest, notFound } from "../gateway-error.js";
import { readJsonBody } from "../request/read-json-body.js";
import { resolveRunTarget } from "../resolve-run-target.js";
import { COUNT_TOKENS_PATH } from "./messages-paths.js";
import { parseMessagesRequest } from "./parse-messages-request.js";

/** Codes of a surface the client's own tools could not be admitted to (a name clash): answered with a 400. */
const CLIENT_CODES: ReadonlySet<string> = new Set(["NAME_CONFLICT", "INVALID_ARGUMENTS", "INVALID_REQUEST"]);

/**
 * Registers `POST /v1/messages/count_tokens` (Anthropic's token counting): the body of a Messages request
 * (`max_tokens` not needed) is read by the same parser, its agent picked as a run's would be, and the answer
 * is `{ input_tokens }`: the runner's estimate of the first model request a run would send (the agent's
 * system prompt with its directory, the declared tools, the client's system, tools and messages), without
 * running plugin hooks and without the session's stored history. Nothing runs and nothing is logged to a
 * session. `path` is the route within `app` (the Messages app); it needs the `runs` scope. Errors are in Anthropic's shape like the rest of
 * `/v1/messages`.
 */
export function registerCountTokensRoute(app: Hono, gateway: GatewayContext, path: string): void {
  app.post(path, requireAccess("runs"), async (c) => {
    const request = parseMessagesRequest(await readJsonBody(c, gateway.maxBodyBytes), gateway.hostedTools);
    const { agentId } = await resolveRunTarget(c, gateway, request);
    const runner = gateway.runner;
    if (runner.countInputTokens === undefined) {
      throw notFound(`${COUNT_TOKENS_PATH} is not available: this gateway's runner cannot count tokens.`);
    }
    let inputTokens: number;
    try {
      inputTokens = await runner.countInputTokens({
        agentId,
        input: request.items,
        ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
        ...(request.clientTools.length === 0 ? {} : { clientTools: request.clientTools }),
      });
    } catch (error) {
      if (!(error instanceof GatewayError) && isToolsiftError(error) && CLIENT_CODES.has(error.code)) {
        throw invalidRequest("tools", error.message, error.code.toLowerCase());
      }
      throw error;
    }
    return c.json({ input_tokens: inputTokens });
  });
}
