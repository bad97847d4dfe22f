import { type Span, SpanStatusCode } from "@opentelemetry/api";
import { isToolsiftError } from "../../shared/errors/index.js";
import { Attribute } from "./semantic-names.js";

/**
 * The `error.type` of a thrown value: a ToolsiftError's `code`, else the error's class name. Never its
 * message: provider and tool messages may quote what a span must not carry (a key, an argument).
 */
export function errorTypeOf(error: unknown): string {
  if (isToolsiftError(error) && typeof error.code === "string") return error.code;
  if (error instanceof Error && error.name) return error.name;
  return "_OTHER";
}

/** Marks `span` failed with `errorType` (`error.type` and an error status whose description is the type). */
export function markSpanFailed(span: Span, errorType: string): void {
  span.setAttribute(Attribute.errorType, errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
}
