import { ToolsiftError } from "../../shared/errors/index.js";

/** An INVALID_REQUEST error: a control's request broke a request rule; the message says which. */
export function invalidRequest(message: string): ToolsiftError {
  return new ToolsiftError("INVALID_REQUEST", message);
}
