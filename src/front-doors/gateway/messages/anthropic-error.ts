import type { ApiErrorBody } from "../gateway-error.js";

/** The path of the Anthropic Messages API; it and every path under it answer errors in Anthropic's shape. */
export const MESSAGES_PATH = "/v1/messages";

/** Anthropic's token counting route: the input tokens a Messages request would take. */
export const COUNT_TOKENS_PATH = `${MESSAGES_PATH}/count_tokens`;

/** The `error.type` of an Anthropic error object, as the official SDK knows them. */
export type AnthropicErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "request_too_large"
  | "rate_limit_error"
  | "api_error"
  | "timeout_error"
  | "overloaded_error";

/** The JSON body of an error on the Messages API (and of its stream's `error` event). */
export type AnthropicErrorBody = { type: "error"; error: { type: AnthropicErrorType; message: string } };

/**
 * Anthropic's error type for a gateway status: 400/405/415 `invalid_request_error`, 401
 * `authentication_error`, 403 `permission_error`, 404 `not_found_error`, 413 `request_too_large`, 429
 * `rate_limit_error`, 424 `api_error` (the gateway's provider refused its key: not the client's request), 503
 * `overloaded_error` (shutting down, storage unavailable: retry later), 504 `timeout_error`, other 5xx
 * `api_error`. The status itself is kept, so clients retry what they would retry.
 */
export function anthropicErrorType(status: number): AnthropicErrorType {
  switch (status) {
    case 401:
      return "authentication_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 424:
      return "api_error";
    case 429:
      return "rate_limit_error";
    case 503:
      return "overloaded_error";
    case 504:
      return "timeout_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

/** An error in Anthropic's shape, `{ type: "error", error: { type, message } }`, for a status and message. */
export function toAnthropicErrorBody(status: number, message: string): AnthropicErrorBody {
  return { type: "error", error: { type: anthropicErrorType(status), message } };
}

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
