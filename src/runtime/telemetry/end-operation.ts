import type { Attributes, Span } from "@opentelemetry/api";
import { markSpanFailed } from "./error-type.js";
import { Attribute } from "./semantic-names.js";
import { type Instruments, secondsSince } from "./telemetry-on.js";

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
