import { type AnthropicErrorBody, toAnthropicErrorBody } from "../../../runtime/wire/index.js";
import type { ApiErrorBody } from "../gateway-error.js";

/** The path of the Anthropic Messages API; it and every path under it answer errors in Anthropic's shape. */
export const MESSAGES_PATH = "/v1/messages";

/** Anthropic's token counting route: the input tokens a Messages request would take. */
export const COUNT_TOKENS_PATH = `${MESSAGES_PATH}/count_tokens`;

/**
 * The body of an answer given before any route is chosen (the browser guard's refusals, the server's busy
 * 503), when only the path is known: Anthropic's shape on `/v1/messages` and anything under it, the OpenAI
 * shape everywhere else. Once routed, each dialect's app renders its own errors (`createDialectApp`).
 */
export function unroutedErrorBody(
  path: string,
  error: { status: number; message: string; body: () => ApiErrorBody },
): ApiErrorBody | AnthropicErrorBody {
  const anthropic = path === MESSAGES_PATH || path.startsWith(`${MESSAGES_PATH}/`);
  return anthropic ? toAnthropicErrorBody(error.status, error.message) : error.body();
}
