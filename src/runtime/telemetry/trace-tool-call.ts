import { type Attributes, context, type Span, SpanKind, trace } from "@opentelemetry/api";
import { cutText } from "../../shared/text/index.js";
import { collectSecretValues, redactKnownValues, redactSecrets, redactText } from "../sessions/index.js";
import { MAX_CAPTURED_CONTENT_CHARS, MAX_REASON_CHARS } from "./limits.js";
import { Attribute, executeToolSpanName, Operation } from "./semantic-names.js";
import { errorTypeOf, markSpanFailed } from "./span-outcome.js";
import { activeInstruments, activeTracer, secondsSince } from "./telemetry-on.js";
import { telemetrySettings } from "./telemetry-settings.js";

/** What is known about a tool call when it starts. */
export interface ToolSpanInput {
  /** The tool's name (`gen_ai.tool.name`): the name the model called, or the target's behind `tool_call`. */
  name: string;
  /** The model's call id (`gen_ai.tool.call.id`). */
  callId?: string;
  /** The catalog entry reached (absent for controls and unknown names). */
  toolId?: string;
  source?: string;
  /** Which surface a target call came from (`control`, `code-mode`, …). */
  surface?: string;
  /** Put on the span only with `telemetry.captureToolContent`, redacted. */
  arguments: unknown;
}

/** How a tool call ended, as its span and metrics record it. */
export interface ToolSpanOutcome {
  isError: boolean;
  /** The error's `code` (`BLOCKED`, `INVALID_ARGUMENTS`, `TOOL_FAILED`, …). */
  errorType?: string;
  /** Why a policy, a `before_tool_call` hook or an approval blocked it. */
  blockedReason?: string;
  /** The result text (captured only when opted in). */
  resultText?: string;
  /** A `tool_search`: its queries, limit and candidates returned. */
  search?: { queryCount: number; limit?: number; hits: number };
}

/**
 * Runs one tool call inside an `execute_tool {tool}` span made the active context (so an MCP call it makes
 * is its child), and records `gen_ai.execute_tool.duration` (and the search metrics for a `tool_search`).
 * `outcomeOf` reads how a settled call ended; a rejection is recorded with its code and passed on.
 */
export async function traceToolCall<T>(
  input: ToolSpanInput,
  work: () => Promise<T>,
  outcomeOf: (value: T) => ToolSpanOutcome,
): Promise<T> {
  const tracer = activeTracer();
  const instruments = activeInstruments();
  if (tracer === undefined && instruments === undefined) return work();
  const started = performance.now();
  const span = tracer?.startSpan(executeToolSpanName(input.name), {
    kind: SpanKind.INTERNAL,
    attributes: startAttributes(input),
  });
  let value: T;
  try {
    value = span ? await context.with(trace.setSpan(context.active(), span), work) : await work();
  } catch (error) {
    finishToolCall(input, span, started, {
      isError: true,
      errorType: errorTypeOf(error),
      ...blockedReasonOf(error),
    });
    throw error;
  }
  let outcome: ToolSpanOutcome;
  try {
    outcome = outcomeOf(value);
  } catch {
    // Reading the outcome must never change the call's result.
    outcome = { isError: false };
  }
  finishToolCall(input, span, started, outcome);
  return value;
}

/** Ends the span with the outcome's attributes and status, and records the duration metrics. */
function finishToolCall(
  input: ToolSpanInput,
  span: Span | undefined,
  started: number,
  outcome: ToolSpanOutcome,
): void {
  if (span) {
    if (span.isRecording()) span.setAttributes(endAttributes(input, outcome));
    if (outcome.isError) markSpanFailed(span, outcome.errorType ?? "tool_error");
    span.end();
  }
  const instruments = activeInstruments();
  if (!instruments) return;
  const seconds = secondsSince(started);
  instruments.toolDuration.record(seconds, {
    [Attribute.operationName]: Operation.executeTool,
    [Attribute.toolName]: input.name,
    ...(outcome.isError ? { [Attribute.errorType]: outcome.errorType ?? "tool_error" } : {}),
  });
  if (outcome.search) {
    instruments.searchDuration.record(seconds, {});
    instruments.searchHits.record(outcome.search.hits, {});
  }
}

function startAttributes(input: ToolSpanInput): Attributes {
  const attributes: Attributes = {
    [Attribute.operationName]: Operation.executeTool,
    [Attribute.toolName]: input.name,
    [Attribute.toolType]: "function",
  };
  if (input.callId !== undefined) attributes[Attribute.toolCallId] = input.callId;
  if (input.toolId !== undefined) attributes[Attribute.toolId] = input.toolId;
  if (input.source !== undefined) attributes[Attribute.toolSource] = input.source;
  if (input.surface !== undefined) attributes[Attribute.callSurface] = input.surface;
  if (telemetrySettings().captureToolContent)
    attributes[Attribute.toolCallArguments] = capturedArguments(input.arguments);
  return attributes;
}

function endAttributes(input: ToolSpanInput, outcome: ToolSpanOutcome): Attributes {
  const attributes: Attributes = {
    [Attribute.toolOutcome]: outcome.errorType === "BLOCKED" ? "blocked" : outcome.isError ? "error" : "ok",
  };
  if (outcome.blockedReason !== undefined)
    attributes[Attribute.blockedReason] = cutText(redactText(outcome.blockedReason), MAX_REASON_CHARS);
  if (outcome.search) {
    attributes[Attribute.searchQueryCount] = outcome.search.queryCount;
    attributes[Attribute.searchHitCount] = outcome.search.hits;
    if (outcome.search.limit !== undefined) attributes[Attribute.searchLimit] = outcome.search.limit;
  }
  if (outcome.resultText !== undefined && telemetrySettings().captureToolContent)
    attributes[Attribute.toolCallResult] = capturedResult(outcome.resultText, input.arguments);
  return attributes;
}

function blockedReasonOf(error: unknown): { blockedReason?: string } {
  const details = (error as { details?: { reason?: unknown } } | undefined)?.details;
  return typeof details?.reason === "string" ? { blockedReason: details.reason } : {};
}

/**
 * Tool arguments as span text, redacted like the session log: secret-named keys and secret shapes
 * hidden, then cut to MAX_CAPTURED_CONTENT_CHARS. Only for `telemetry.captureToolContent`.
 */
export function capturedArguments(args: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(redactSecrets(args)) ?? "null";
  } catch {
    text = "[unserialisable]";
  }
  return cutText(redactText(text), MAX_CAPTURED_CONTENT_CHARS);
}

/** A tool's result text as span text: the secret values of its arguments and secret shapes hidden, then cut. */
export function capturedResult(text: string, args: unknown): string {
  const known = collectSecretValues(args);
  return cutText(redactText(redactKnownValues(text, known)), MAX_CAPTURED_CONTENT_CHARS);
}
