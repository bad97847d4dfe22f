import type { OpenAIErrorBody } from "../../runtime/wire/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { BUSY_RETRY_AFTER_SECONDS } from "../http-server/index.js";

/** The `type` of an OpenAI-style error object. */
export type ApiErrorType = "invalid_request_error" | "not_found_error" | "server_error";

/** The JSON body of every gateway error response, in the OpenAI shape. */
export type ApiErrorBody = OpenAIErrorBody<ApiErrorType>;

/** HTTP statuses the gateway answers errors with. */
export type ApiErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 424 | 429 | 500 | 502 | 503 | 504;

/**
 * A request the gateway refuses, with the HTTP status and OpenAI error fields it is answered with.
 * 4xx carry `INVALID_REQUEST`, 5xx `INTERNAL`, so code that only knows ToolsiftError still reads it.
 */
export class GatewayError extends ToolsiftError {
  readonly status: ApiErrorStatus;
  readonly type: ApiErrorType;
  readonly param: string | null;
  readonly apiCode: string | null;
  /** Response headers sent with the error (`Retry-After`, `x-should-retry`); none by default. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: ApiErrorStatus,
    message: string,
    details: { type?: ApiErrorType; param?: string; code?: string; headers?: Record<string, string> } = {},
  ) {
    super(status >= 500 ? "INTERNAL" : "INVALID_REQUEST", message);
    this.status = status;
    this.type = details.type ?? defaultType(status);
    this.param = details.param ?? null;
    this.apiCode = details.code ?? null;
    this.headers = details.headers ?? {};
  }

  /** The OpenAI-style body for this error. */
  body(): ApiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.apiCode } };
  }
}

/** A 400 naming the offending request field (`param`), as OpenAI does. */
export function invalidRequest(param: string | undefined, message: string, code?: string): GatewayError {
  return new GatewayError(400, message, {
    ...(param === undefined ? {} : { param }),
    ...(code === undefined ? {} : { code }),
  });
}

/** The 503 of a request the gateway has no room for (connections or file descriptors), with `Retry-After`. */
export function serverBusy(): GatewayError {
  return new GatewayError(
    503,
    `the gateway is at its connection or file limit; retry after ${BUSY_RETRY_AFTER_SECONDS} s.`,
    { code: "server_busy", headers: { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) } },
  );
}

/** A 404 for something the request names that does not exist. */
export function notFound(message: string, param?: string): GatewayError {
  return new GatewayError(404, message, {
    type: "not_found_error",
    ...(param === undefined ? {} : { param }),
  });
}

function defaultType(status: ApiErrorStatus): ApiErrorType {
  if (status >= 500) return "server_error";
  return status === 404 ? "not_found_error" : "invalid_request_error";
}
