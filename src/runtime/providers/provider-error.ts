import { messageOf, ToolsiftError } from "../../shared/errors/index.js";
import { collapseWhitespace, cutText } from "../../shared/text/index.js";
import { OPENAI_API_KEY_ENV } from "./api-endpoints.js";
import { MAX_PROVIDER_ERROR_CHARS } from "./limits.js";

/** What a provider's key is replaced with when the provider quotes it in an error message. */
const REDACTED_API_KEY = "[REDACTED]";

/** What a failure message needs to know about the provider. */
export type ProviderErrorContext = {
  id: string;
  baseUrl: string;
  timeoutMs: number;
  isOpenAI: boolean;
  /** The environment variable a missing key falls back to, named in 401/403 hints. Default: OpenAI's, when `isOpenAI`. */
  keyEnv?: string;
  /** The key sent to the provider: removed from the provider's own messages, which some servers echo. */
  apiKey?: string;
};

/** Text with every occurrence of the provider's key replaced by `[REDACTED]`. */
export function withoutApiKey(text: string, apiKey: string | undefined): string {
  return apiKey === undefined || apiKey.length === 0 ? text : text.split(apiKey).join(REDACTED_API_KEY);
}

/** `CANCELLED`: the caller's signal aborted the request. */
export function cancelledError(context: ProviderErrorContext, cause: unknown): ToolsiftError {
  return new ToolsiftError("CANCELLED", `The request to provider "${context.id}" was cancelled.`, { cause });
}

/** An attempt that got no answer within `timeoutMs` (after the client's retries). */
export function timeoutError(context: ProviderErrorContext, cause: unknown): ToolsiftError {
  const { id, baseUrl, timeoutMs } = context;
  return new ToolsiftError(
    "PROVIDER_FAILED",
    `Provider "${id}" did not answer within ${timeoutMs} ms. Check that ${baseUrl} is up, or raise models.providers.${id}.timeoutMs.`,
    { cause },
  );
}

/** A provider that could not be reached (connection refused, unknown host, …), with the system code. */
export function unreachableError(context: ProviderErrorContext, cause: unknown): ToolsiftError {
  const { id, baseUrl } = context;
  const code = causeCode(cause instanceof Error ? cause.cause : undefined);
  return new ToolsiftError(
    "PROVIDER_FAILED",
    `Provider "${id}" could not be reached at ${baseUrl}${code === undefined ? "" : ` (${code})`}. Check that the server is running and models.providers.${id}.baseUrl.`,
    { cause },
  );
}

/** 401 and 403: the provider refused the key; retrying cannot help, the operator must fix the key. */
export function isAuthStatus(status: number): boolean {
  return status === 401 || status === 403;
}

/**
 * An HTTP error status (`PROVIDER_AUTH_FAILED` for 401/403, else `PROVIDER_FAILED`), with the provider's own message (`message`, key removed, whitespace collapsed,
 * bounded) and a hint for the statuses an operator can act on.
 */
export function httpStatusError(
  context: ProviderErrorContext,
  status: number,
  message: string,
  cause: unknown,
): ToolsiftError {
  const text = bounded(withoutApiKey(message, context.apiKey));
  const said = text.length === 0 ? "(no error message)." : /[.!?]$/u.test(text) ? text : `${text}.`;
  return new ToolsiftError(
    isAuthStatus(status) ? "PROVIDER_AUTH_FAILED" : "PROVIDER_FAILED",
    `Provider "${context.id}" failed with HTTP ${status}: ${said}${statusHint(status, context)}`,
    { cause },
  );
}

/** Any other failure: the error's own message, key removed and bounded. */
export function unexplainedError(context: ProviderErrorContext, error: unknown): ToolsiftError {
  return new ToolsiftError(
    "PROVIDER_FAILED",
    `Provider "${context.id}" failed: ${bounded(withoutApiKey(messageOf(error), context.apiKey))}`,
    { cause: error },
  );
}

/** A provider answer toolsift cannot read (no output list, no choices). */
export function malformedAnswerError(id: string, api: string): ToolsiftError {
  return new ToolsiftError(
    "PROVIDER_FAILED",
    `Provider "${id}" sent an answer that is not a valid ${api} response. Check that models.providers.${id}.api matches what the server speaks.`,
  );
}

function statusHint(status: number, context: ProviderErrorContext): string {
  const key = `models.providers.${context.id}`;
  const keyEnv = context.keyEnv ?? (context.isOpenAI ? OPENAI_API_KEY_ENV : undefined);
  if (isAuthStatus(status)) return ` Check ${key}.apiKey${keyEnv ? ` (or ${keyEnv})` : ""}.`;
  if (status === 404) return ` Check ${key}.baseUrl, ${key}.api and the model id.`;
  if (status === 429) return " The provider is rate limiting: wait, or raise maxRetries.";
  if (status === OVERLOADED_STATUS) return " The provider is overloaded: wait, or raise maxRetries.";
  return "";
}

/** Anthropic's "overloaded" status: retried like a 5xx, and worth its own hint when retries run out. */
const OVERLOADED_STATUS = 529;

/** The system error code (ECONNREFUSED, ENOTFOUND, …) somewhere down a fetch failure's cause chain. */
function causeCode(cause: unknown): string | undefined {
  let current = cause;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z_]+$/u.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function bounded(text: string): string {
  return cutText(collapseWhitespace(text), MAX_PROVIDER_ERROR_CHARS);
}

/** A stream that ended cleanly but without its final event: the answer is incomplete. */
export function streamEndedEarlyError(
  context: ProviderErrorContext,
  api: string,
  finalEvent: string,
): ToolsiftError {
  return new ToolsiftError(
    "PROVIDER_FAILED",
    `Provider "${context.id}" ended its ${api} stream before ${finalEvent}, so the answer is incomplete. Retry the request; if it keeps happening, check the server at ${context.baseUrl}.`,
  );
}

/** A stream that broke off (connection lost, unreadable event) before its final event. */
export function streamBrokenError(context: ProviderErrorContext, api: string, error: unknown): ToolsiftError {
  const code = causeCode(error);
  // undici says only "terminated"; its cause says why ("other side closed").
  const cause = error instanceof Error && error.cause !== undefined ? messageOf(error.cause) : "";
  const said = messageOf(error);
  const reason = bounded(withoutApiKey(cause && cause !== said ? `${said}: ${cause}` : said, context.apiKey));
  return new ToolsiftError(
    "PROVIDER_FAILED",
    `Provider "${context.id}" broke off its ${api} stream before the answer was complete (${reason}${code === undefined ? "" : `, ${code}`}). Retry the request; if it keeps happening, check the server at ${context.baseUrl}.`,
    { cause: error },
  );
}

/** A stream that went quiet for the whole timeout in the middle of an answer. */
export function streamStalledError(context: ProviderErrorContext): ToolsiftError {
  return new ToolsiftError(
    "PROVIDER_FAILED",
    `Provider "${context.id}" sent nothing for ${context.timeoutMs} ms in the middle of its streamed answer. Check that ${context.baseUrl} is up, or raise models.providers.${context.id}.timeoutMs.`,
  );
}

/** The failure a provider reported in its own words (a failed response, an `error` event), bounded. */
export function reportedFailureError(context: ProviderErrorContext, message: string): ToolsiftError {
  return new ToolsiftError(
    "PROVIDER_FAILED",
    `Provider "${context.id}" failed: ${cutText(withoutApiKey(message, context.apiKey), MAX_PROVIDER_ERROR_CHARS)}`,
  );
}
