import { isToolsiftError, type ToolsiftErrorCode } from "../../shared/errors/index.js";
import type { ToolResult } from "../catalog/index.js";
import { BlockedError } from "../execution/index.js";

/** What a model sees when a control fails for a reason that is not a ToolsiftError (never a stack). */
export const INTERNAL_ERROR_MESSAGE =
  "Tool Search hit an internal error while handling this request; nothing more is known. Try again, or use another tool.";

/**
 * A failed control as a result, never an exception: `isError: true`, the message as the only text content,
 * and `details.error { code, message }` (a block also keeps the executor's `status: "blocked"` and `reason`).
 * A ToolsiftError keeps its code and message; anything else becomes INTERNAL with a generic message, so no
 * stack, path or foreign message reaches the model.
 */
export function toErrorResult(error: unknown): ToolResult {
  const { code, message, blocked } = describeError(error);
  return {
    content: [{ type: "text", text: message }],
    details: { ...blocked, error: { code, message } },
    isError: true,
  };
}

type DescribedError = {
  code: ToolsiftErrorCode;
  message: string;
  blocked?: { status: "blocked"; reason: string };
};

function describeError(error: unknown): DescribedError {
  try {
    if (isToolsiftError(error)) {
      const { code, message } = error;
      if (typeof code === "string" && typeof message === "string") {
        if (error instanceof BlockedError && code === "BLOCKED") {
          return { code, message, blocked: { status: "blocked", reason: String(error.details.reason) } };
        }
        return { code, message };
      }
    }
  } catch {
    // A hostile thrown value (throwing getters, revoked Proxy) is treated like any foreign error.
  }
  return { code: "INTERNAL", message: INTERNAL_ERROR_MESSAGE };
}
