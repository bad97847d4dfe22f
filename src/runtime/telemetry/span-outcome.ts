/** How a span ends: the `error.type` of a failure, marking a span failed, ending a GenAI operation. */

import { type Attributes, type Span, SpanStatusCode } from "@opentelemetry/api";
import { isToolsiftError } from "../../shared/errors/index.js";
import { Attribute } from "./semantic-names.js";
import { type Instruments, secondsSince } from "./telemetry-on.js";

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

/**
 * Ends a GenAI operation (a run, a provider request): marks its span failed when `errorType` is set, ends
 * it, and records `gen_ai.client.operation.duration` since `startedMs` with the operation's attributes (and
 * `error.type` when it failed).
 */
export function endOperation(
  span: Span | undefined,
  instruments: Instruments | undefined,
  startedMs: number,
  metricAttributes: Attributes,
  errorType: string | undefined,
): void {
  if (span && errorType !== undefined) markSpanFailed(span, errorType);
  span?.end();
  instruments?.operationDuration.record(secondsSince(startedMs), {
    ...metricAttributes,
    ...(errorType === undefined ? {} : { [Attribute.errorType]: errorType }),
  });
}
