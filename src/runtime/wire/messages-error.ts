import type { ErrorType } from "@anthropic-ai/sdk/resources/shared";

/**
 * The `error.type` of an Anthropic error object: the SDK's types the gateway and the mock answer with, and
 * `request_too_large` (Anthropic's 413), which the SDK's union does not list.
 */
export type AnthropicErrorType =
  | Extract<
      ErrorType,
      | "invalid_request_error"
      | "authentication_error"
      | "permission_error"
      | "not_found_error"
      | "rate_limit_error"
      | "api_error"
      | "timeout_error"
      | "overloaded_error"
    >
  | "request_too_large";

/**
 * The JSON body of an error on the Messages API (and of its stream's `error` event): the SDK's
 * `ErrorResponse` without `request_id`, which neither the gateway nor the mock sends.
 */
export type AnthropicErrorBody = { type: "error"; error: { type: AnthropicErrorType; message: string } };

/** An error in Anthropic's shape, `{ type: "error", error: { type, message } }`. */
export function anthropicErrorBody(type: AnthropicErrorType, message: string): AnthropicErrorBody {
  return { type: "error", error: { type, message } };
}

/**
 * Anthropic's error type for an HTTP status: 400/405/415 `invalid_request_error`, 401
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

/** An error in Anthropic's shape for an HTTP status and message (`anthropicErrorType`). */
export function toAnthropicErrorBody(status: number, message: string): AnthropicErrorBody {
  return anthropicErrorBody(anthropicErrorType(status), message);
}
