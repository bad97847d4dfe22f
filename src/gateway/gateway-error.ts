import { ToolsiftError } from "../errors/index.js";

/** The `type` of an OpenAI-style error object. */
export type ApiErrorType = "invalid_request_error" | "not_found_error" | "server_error";

/** The JSON body of every gateway error response, in the OpenAI shape. */
export type ApiErrorBody = {
  error: { message: string; type: ApiErrorType; param: string | null; code: string | null };
};

/** HTTP statuses the gateway answers errors with. */
export type ApiErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 429 | 500 | 502 | 503 | 504;

/**
 * A request the gateway refuses, with the HTTP status and OpenAI error fields it is answered with.
 * 4xx carry `INVALID_REQUEST`, 5xx `INTERNAL`, so code that only knows ToolsiftError still reads it.
 */
export class GatewayError extends ToolsiftError {
  readonly status: ApiErrorStatus;
  readonly type: ApiErrorType;
  readonly param: string | null;
  readonly apiCode: string | null;

  constructor(
    status: ApiErrorStatus,
    message: string,
    details: { type?: ApiErrorType; param?: string; code?: string } = {},
  ) {
    super(status >= 500 ? "INTERNAL" : "INVALID_REQUEST", message);
    this.status = status;
    this.type = details.type ?? defaultType(status);
    this.param = details.param ?? null;
    this.apiCode = details.code ?? null;
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
