import { context, metrics, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { ToolsiftError } from "../../shared/errors/index.js";
import { createRunHooks } from "../run-surface/index.js";
import {
  assistantSays,
  createRunnerHarness,
  functionCall,
  type RunnerHarness,
  scriptedProvider,
  type TestPluginSpec,
  WEATHER_TOOLS,
} from "../runner/runner.test-support.js";
import { startConfiguredTelemetry, telemetryOn, traceProvider } from "./index.js";
import { activeTracer } from "./telemetry-on.js";

/** The weather tools, with a hook that blocks email (a `before_tool_call` block). */
const BLOCKING_PLUGIN: TestPluginSpec = {
  id: "weather",
  tools: WEATHER_TOOLS,
  hooks: `api.on("before_tool_call", (event) => {
    if (event.toolName === "email_send") return { block: "Email is disabled by the mail plugin." };
    return undefined;
  });`,
};

let harness: RunnerHarness | undefined;
let unregister: (() => Promise<void>) | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await unregister?.();
  unregister = undefined;
});

/** Registers an SDK that keeps every ended span in memory (and the context manager, as start-telemetry does). */
function registerInMemorySdk(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  unregister = async () => {
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  };
  return exporter;
}

function spanNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as ReadableSpan;
}

describe("with no OpenTelemetry SDK registered (the default)", () => {
  it("records nothing and adds nothing: no tracer, no aroundCall hook, the provider's own answer", async () => {
    expect(activeTracer()).toBeUndefined();
    expect(telemetryOn()).toBe(false);
    const hooks = createRunHooks({
      agentId: "main",
      sessionKey: "s",
      isTargetCall: () => false,
      onTargetActivity: () => {},
    });
    expect(hooks.aroundCall).toBeUndefined();
    const response = { output: [], requestBytes: 1 };
    const provider = traceProvider({ id: "p", complete: async () => response });
    expect(provider.id).toBe("p");
    expect(await provider.complete({ model: "m", instructions: "", input: [], tools: [] })).toBe(response);
  });

  it("starts nothing without an endpoint (and with OTEL_SDK_DISABLED=true)", async () => {
    expect(await startConfiguredTelemetry({ env: {} })).toBeUndefined();
    expect(
      await startConfiguredTelemetry({
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_SDK_DISABLED: "true" },
      }),
    ).toBeUndefined();
    expect(activeTracer()).toBeUndefined();
    expect(metrics.getMeterProvider().getMeter("x")).toBe(metrics.getMeterProvider().getMeter("y"));
  });
});

describe("with an SDK registered (in-memory exporter)", () => {
  it.each([
    ["through tool_call (a target span under the control's)", { mode: "tools" } as const],
    ["declared directly (Tool Search off: the call's own span)", false as const],
  ])("records a hook's block and a validation failure with their codes, %s", async (_label, toolSearch) => {
    const exporter = registerInMemorySdk();
    const viaControl = toolSearch !== false;
    const call = (id: string, name: string, args: unknown) =>
      viaControl
        ? functionCall(id, "tool_call", { id: `native:weather:${name}`, args })
        : functionCall(id, name, args);
    harness = await createRunnerHarness({
      toolSearch,
      plugins: [BLOCKING_PLUGIN],
      provider: scriptedProvider((_request, index) =>
        index === 0
          ? [
              call("c1", "email_send", { to: "a@example.com" }),
              call("c2", "weather_forecast", { town: "Oslo" }),
            ]
          : [assistantSays("done")],
      ),
    });
    const result = await harness.say("s1", "send it");
    expect(result.status).toBe("completed");
    const spans = exporter.getFinishedSpans();
    const run = spanNamed(spans, "invoke_agent main");
    const blocked = spans.filter((span) => span.name === "execute_tool email_send");
    const invalid = spans.filter((span) => span.name === "execute_tool weather_forecast");
    expect(blocked).toHaveLength(1);
    expect(invalid).toHaveLength(1);
    expect(blocked[0]?.attributes).toMatchObject({
      "toolsift.tool.outcome": "blocked",
      "error.type": "BLOCKED",
      "toolsift.tool.blocked_reason": "Email is disabled by the mail plugin.",
      "gen_ai.tool.call.id": "c1",
    });
    expect(blocked[0]?.status).toEqual({ code: SpanStatusCode.ERROR, message: "BLOCKED" });
    expect(invalid[0]?.attributes).toMatchObject({
      "toolsift.tool.outcome": "error",
      "error.type": "INVALID_ARGUMENTS",
    });
    // Content is not captured unless opted in.
    expect(blocked[0]?.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    const parents = viaControl
      ? spans
          .filter((span) => span.name === "execute_tool tool_call")
          .map((span) => span.spanContext().spanId)
      : [run.spanContext().spanId];
    expect(parents).toHaveLength(viaControl ? 2 : 1);
    for (const span of [...blocked, ...invalid]) {
      expect(parents).toContain(span.parentSpanContext?.spanId);
      expect(span.spanContext().traceId).toBe(run.spanContext().traceId);
    }
  });

  it("puts a provider's usage on its chat span, cached tokens included when the provider reports them", async () => {
    const exporter = registerInMemorySdk();
    const provider = traceProvider({
      id: "anthropic",
      complete: async () => ({
        output: [assistantSays("hi")],
        usage: { inputTokens: 120, outputTokens: 7, cacheReadInputTokens: 100, cacheCreationInputTokens: 20 },
        requestBytes: 512,
      }),
    });
    await provider.complete({
      model: "claude-x",
      instructions: "",
      input: [],
      tools: [],
      maxOutputTokens: 64,
    });
    const chat = spanNamed(exporter.getFinishedSpans(), "chat claude-x");
    expect(chat.kind).toBe(SpanKind.CLIENT);
    expect(chat.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": "claude-x",
      "gen_ai.request.max_tokens": 64,
      "gen_ai.response.finish_reasons": ["stop"],
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 7,
      "gen_ai.usage.cache_read.input_tokens": 100,
      "gen_ai.usage.cache_creation.input_tokens": 20,
      "toolsift.provider.request_bytes": 512,
    });
  });

  it("records a failed provider request and the failed run with the error code, never the message", async () => {
    const exporter = registerInMemorySdk();
    harness = await createRunnerHarness({
      provider: scriptedProvider(() => {
        throw new ToolsiftError(
          "PROVIDER_FAILED",
          "upstream said: key sk-secret-in-a-provider-message is invalid",
        );
      }),
    });
    const result = await harness.say("s2", "hello");
    expect(result.status).toBe("failed");
    const spans = exporter.getFinishedSpans();
    const chat = spanNamed(spans, "chat toolsift-mock");
    const run = spanNamed(spans, "invoke_agent main");
    expect(chat.attributes["error.type"]).toBe("PROVIDER_FAILED");
    expect(chat.status).toEqual({ code: SpanStatusCode.ERROR, message: "PROVIDER_FAILED" });
    expect(run.attributes).toMatchObject({
      "error.type": "PROVIDER_FAILED",
      "toolsift.run.status": "failed",
    });
    expect(JSON.stringify(spans.map((span) => [span.attributes, span.status, span.events]))).not.toContain(
      "sk-secret-in-a-provider-message",
    );
  });
});
