/** An error body in OpenAI's shape: `{ error: { message, type, param, code } }`. */
export type OpenAIErrorBody = {
  error: { message: string; type: string; param: string | null; code: string | null };
};

/** The OpenAI-style error body for a refused request (`invalid_request_error` unless said otherwise). */
export function openAIError(
  message: string,
  options: { type?: string; param?: string; code?: string } = {},
): OpenAIErrorBody {
  return {
    error: {
      message,
      type: options.type ?? "invalid_request_error",
      param: options.param ?? null,
      code: options.code ?? null,
    },
  };
}

/** A request the mock cannot answer: the message and the parameter at fault. */
export class MockRequestError extends Error {
  constructor(
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = "MockRequestError";
  }
}
