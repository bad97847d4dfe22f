import { type Attributes, context, SpanKind, trace } from "@opentelemetry/api";
import type { Provider, ProviderRequest, ProviderResponse } from "../providers/index.js";
import { Attribute, chatSpanName, Operation } from "./semantic-names.js";
import { endOperation, errorTypeOf } from "./span-outcome.js";
import { activeInstruments, activeTracer } from "./telemetry-on.js";

/**
 * The same provider with each `complete` traced as a `chat {model}` client span (a child of the run's span)
 * and recorded in `gen_ai.client.operation.duration` and `gen_ai.client.token.usage`. Every other member is
 * the provider's own. With no SDK registered a request costs one check more.
 */
export function traceProvider(provider: Provider): Provider {
  const complete = (request: ProviderRequest) => tracedComplete(provider, request);
  return new Proxy(provider, {
    get(target, key) {
      if (key === "complete") return complete;
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function tracedComplete(provider: Provider, request: ProviderRequest): Promise<ProviderResponse> {
  const tracer = activeTracer();
  const instruments = activeInstruments();
  if (tracer === undefined && instruments === undefined) return provider.complete(request);
  const started = performance.now();
  const metricAttributes: Attributes = {
    [Attribute.operationName]: Operation.chat,
    [Attribute.providerName]: provider.id,
    [Attribute.requestModel]: request.model,
  };
  const span = tracer?.startSpan(chatSpanName(request.model), {
    kind: SpanKind.CLIENT,
    attributes: {
      ...metricAttributes,
      ...(request.maxOutputTokens === undefined
        ? {}
        : { [Attribute.requestMaxTokens]: request.maxOutputTokens }),
    },
  });
  let errorType: string | undefined;
  try {
    const response = span
      ? await context.with(trace.setSpan(context.active(), span), () => provider.complete(request))
      : await provider.complete(request);
    if (span?.isRecording()) span.setAttributes(responseAttributes(response));
    if (instruments && response.usage) {
      instruments.tokenUsage.record(response.usage.inputTokens, {
        ...metricAttributes,
        [Attribute.tokenType]: "input",
      });
      instruments.tokenUsage.record(response.usage.outputTokens, {
        ...metricAttributes,
        [Attribute.tokenType]: "output",
      });
    }
    return response;
  } catch (error) {
    errorType = errorTypeOf(error);
    throw error;
  } finally {
    endOperation(span, instruments, started, metricAttributes, errorType);
  }
}

/**
 * Usage, finish reasons (derived from the output: a function call, else stop) and the response id if known.
 * A response it cannot read gives no attributes: the instrumentation never fails a request.
 */
function responseAttributes(response: ProviderResponse): Attributes {
  try {
    return readResponseAttributes(response);
  } catch {
    return {};
  }
}

function readResponseAttributes(response: ProviderResponse): Attributes {
  const attributes: Attributes = {
    [Attribute.responseFinishReasons]: [
      response.output.some((item) => item.type === "function_call") ? "tool_call" : "stop",
    ],
    [Attribute.providerRequestBytes]: response.requestBytes,
  };
  if (response.id !== undefined) attributes[Attribute.responseId] = response.id;
  const usage = response.usage;
  if (usage) {
    attributes[Attribute.usageInputTokens] = usage.inputTokens;
    attributes[Attribute.usageOutputTokens] = usage.outputTokens;
    if (usage.cacheReadInputTokens !== undefined)
      attributes[Attribute.usageCacheReadInputTokens] = usage.cacheReadInputTokens;
    if (usage.cacheCreationInputTokens !== undefined)
      attributes[Attribute.usageCacheCreationInputTokens] = usage.cacheCreationInputTokens;
  }
  return attributes;
}
