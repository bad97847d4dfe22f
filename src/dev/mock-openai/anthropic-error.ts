/** An error body in Anthropic's shape: `{ type: "error", error: { type, message } }`. */
export type AnthropicErrorBody = { type: "error"; error: { type: string; message: string } };

/** The Anthropic-style error body for a refused `/v1/messages` request (`invalid_request_error` unless said otherwise). */
export function anthropicError(message: string, type = "invalid_request_error"): AnthropicErrorBody {
  return { type: "error", error: { type, message } };
}

/** Whether a path is served in Anthropic's shape (its errors too). */
export function isAnthropicPath(path: string): boolean {
  return path === "/v1/messages";
}
