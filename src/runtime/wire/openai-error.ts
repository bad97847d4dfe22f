import type { ErrorObject } from "openai/resources/shared";

/**
 * The JSON body of an error in OpenAI's shape, `{ error: { message, type, param, code } }`: the `openai`
 * client's `ErrorObject`, with `type` narrowed by the sender (`TType`).
 */
export type OpenAIErrorBody<TType extends string = string> = { error: ErrorObject & { type: TType } };

/** The OpenAI-style error body for a message (`invalid_request_error`, no `param` or `code` unless given). */
export function openAIErrorBody(
  message: string,
  options: { type?: string; param?: string | null; code?: string | null } = {},
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
