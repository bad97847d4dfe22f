import { context, SpanKind, trace } from "@opentelemetry/api";
import { Attribute, invokeAgentSpanName, Operation } from "./semantic-names.js";
import { endOperation, errorTypeOf } from "./span-outcome.js";
import { activeInstruments, activeTracer } from "./telemetry-on.js";

/** What is known about a run before it starts. */
export interface RunSpanInput {
  agentId: string;
  sessionKey: string;
  /** The provider id from the config (`openai`, `mock`, …). */
  providerId: string;
  /** The model id at the provider. */
  model: string;
}

/** The part of a run's result its span records (the runner's `RunResult`). */
export interface RunSpanOutcome {
  runId: string;
  status: string;
  usage: { inputTokens: number; outputTokens: number };
  /** Already redacted by the runner (its known secrets and secret shapes). */
  error?: { code: string };
}

/**
 * Runs one agent run inside an `invoke_agent {agent}` span made the active context, so the provider
 * requests, searches and tool calls of the run (and the MCP calls they make) become its children; records
 * the run's duration. With no SDK registered it only calls `run`.
 */
export async function traceRun<T extends RunSpanOutcome>(
  input: RunSpanInput,
  run: () => Promise<T>,
): Promise<T> {
  const tracer = activeTracer();
  const instruments = activeInstruments();
  if (tracer === undefined && instruments === undefined) return run();
  const started = performance.now();
  const metricAttributes = {
    [Attribute.operationName]: Operation.invokeAgent,
    [Attribute.providerName]: input.providerId,
    [Attribute.requestModel]: input.model,
  };
  const span = tracer?.startSpan(invokeAgentSpanName(input.agentId), {
    kind: SpanKind.INTERNAL,
    attributes: {
      ...metricAttributes,
      [Attribute.agentName]: input.agentId,
      [Attribute.agentId]: input.agentId,
      [Attribute.conversationId]: input.sessionKey,
    },
  });
  const active = span ? trace.setSpan(context.active(), span) : context.active();
  let errorType: string | undefined;
  try {
    const result = await context.with(active, run);
    if (result.error) errorType = result.error.code;
    if (span?.isRecording()) {
      span.setAttributes({
        [Attribute.runId]: result.runId,
        [Attribute.runStatus]: result.status,
        [Attribute.usageInputTokens]: result.usage.inputTokens,
        [Attribute.usageOutputTokens]: result.usage.outputTokens,
      });
    }
    return result;
  } catch (error) {
    errorType = errorTypeOf(error);
    throw error;
  } finally {
    endOperation(span, instruments, started, metricAttributes, errorType);
  }
}
