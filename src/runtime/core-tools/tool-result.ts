import type { ToolResult } from "../../core/catalog/index.js";
import { messageOf } from "../../shared/errors/index.js";

/** A successful text result. */
export function textResult(text: string, details?: unknown): ToolResult {
  return { content: [{ type: "text", text }], ...(details === undefined ? {} : { details }) };
}

/** A refused or failed call, as the model sees it (never a thrown error). */
export function errorResult(text: string, details?: unknown): ToolResult {
  return { ...textResult(text, details), isError: true };
}

/** The `code` of a Node system error, if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

/** A short, stack-free description of a thrown value for a tool result. */
export function failureText(error: unknown): string {
  const code = errorCode(error);
  if (code !== undefined) return code;
  return messageOf(error);
}
