import { context, propagation, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMcpToolSource, type McpToolSource } from "../mcp-client/index.js";
import { type HttpFixture, startHttpFixture } from "../mcp-client/mcp.test-support.js";

let fixture: HttpFixture;
let source: McpToolSource;
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  fixture = await startHttpFixture({ prefix: "web", count: 5 });
  source = createMcpToolSource({ web: { url: fixture.url } });
  await source.start();
}, 30_000);

afterAll(async () => {
  await source?.close();
  await fixture?.close();
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});

it("traces a Streamable HTTP tools/call as a client span of the caller's span, with the MCP session id", async () => {
  const tool = source.tools().find((candidate) => candidate.name === "web_create_contact");
  if (!tool) throw new Error("the fixture lists web_create_contact");
  const tracer = trace.getTracer("test");
  const answer = await tracer.startActiveSpan("caller", async (caller) => {
    try {
      return await tool.execute({ id: "c-1" }, {});
    } finally {
      caller.end();
    }
  });
  expect(answer.isError).not.toBe(true);
  const spans = exporter.getFinishedSpans();
  const caller = spans.find((span) => span.name === "caller");
  const client = spans.find((span) => span.name === "tools/call web_create_contact");
  expect(client?.kind).toBe(SpanKind.CLIENT);
  expect(client?.parentSpanContext?.spanId).toBe(caller?.spanContext().spanId);
  expect(client?.attributes).toMatchObject({
    "mcp.method.name": "tools/call",
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "web_create_contact",
    "network.transport": "tcp",
    "toolsift.mcp.server": "web",
  });
  expect(client?.attributes["mcp.session.id"]).toMatch(/\S/u);
  expect(client?.attributes["error.type"]).toBeUndefined();
});
