import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { isToolsiftError, type ToolsiftError } from "../../shared/errors/index.js";
import {
  cancelledError,
  httpStatusError,
  type ProviderErrorContext,
  timeoutError,
  unexplainedError,
  unreachableError,
} from "./provider-error.js";

/**
 * The ToolsiftError for a request that failed for good (after the client's retries): `CANCELLED` when the
 * caller aborted, otherwise `PROVIDER_FAILED` with a message naming the provider and what to check — the
 * HTTP status and the provider's own message (bounded), the timeout, or the unreachable base URL.
 */
export function toProviderError(error: unknown, context: ProviderErrorContext): ToolsiftError {
  if (isToolsiftError(error)) return error;
  if (error instanceof APIUserAbortError) return cancelledError(context, error);
  if (error instanceof APIConnectionTimeoutError) return timeoutError(context, error);
  if (error instanceof APIConnectionError) return unreachableError(context, error);
  if (error instanceof APIError && typeof error.status === "number")
    return httpStatusError(context, error.status, openAIMessage(error), error);
  return unexplainedError(context, error);
}

/** The provider's message of an `openai` client error: the body's `error.message`, else the client's text. */
function openAIMessage(error: APIError): string {
  const inner = error.error;
  return typeof inner === "object" &&
    inner !== null &&
    typeof (inner as { message?: unknown }).message === "string"
    ? (inner as { message: string }).message
    : error.message.replace(/^\d{3} /u, "");
}
