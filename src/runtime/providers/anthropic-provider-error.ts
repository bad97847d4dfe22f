import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "@anthropic-ai/sdk";
import { isToolsiftError, type ToolsiftError } from "../../shared/errors/index.js";
import {
  cancelledError,
  httpStatusError,
  type ProviderErrorContext,
  reportedFailureError,
  timeoutError,
  unexplainedError,
  unreachableError,
} from "./provider-error.js";

/**
 * The ToolsiftError for an Anthropic request that failed for good, worded as for the OpenAI providers:
 * `CANCELLED` when the caller aborted; `PROVIDER_FAILED` for a timeout, an unreachable server, an HTTP
 * status (with Anthropic's `error.message` and the hint for the status, 529 included), or an `error` event
 * in a stream (the provider's message). The key is removed from every quoted text.
 */
export function toAnthropicProviderError(error: unknown, context: ProviderErrorContext): ToolsiftError {
  if (isToolsiftError(error)) return error;
  if (error instanceof APIUserAbortError) return cancelledError(context, error);
  if (error instanceof APIConnectionTimeoutError) return timeoutError(context, error);
  if (error instanceof APIConnectionError) return unreachableError(context, error);
  if (error instanceof APIError) {
    if (typeof error.status === "number")
      return httpStatusError(context, error.status, anthropicMessage(error), error);
    // An `event: error` in a stream: no status, the body is Anthropic's error object.
    return reportedFailureError(context, anthropicMessage(error));
  }
  return unexplainedError(context, error);
}

/** Whether an error is the Anthropic client's own (passed through a followed stream for the mapping above). */
export function isAnthropicClientError(error: unknown): boolean {
  return error instanceof APIError;
}

/** The provider's own words: `error.message` of the body (`{ type: "error", error: { type, message } }`). */
function anthropicMessage(error: APIError): string {
  if (typeof error.apiMessage === "string" && error.apiMessage.trim().length > 0) return error.apiMessage;
  const body = error.error;
  if (typeof body === "string" && body.trim().length > 0) return body;
  return error.message.replace(/^\d{3} /u, "");
}
