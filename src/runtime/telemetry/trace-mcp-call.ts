import { type Attributes, type Context, context, type Span, SpanKind, trace } from "@opentelemetry/api";
import { Attribute, MCP_TOOLS_CALL, mcpToolsCallSpanName, Operation } from "./semantic-names.js";
import { errorTypeOf, markSpanFailed } from "./span-outcome.js";
import { activeTracer } from "./telemetry-on.js";
import { extractTraceContext, injectTraceContext, type TraceCarrier } from "./trace-context-carrier.js";

/** An MCP `tools/call` as its span describes it. */
export interface McpCallSpanInput {
  /** The tool's name on the MCP server. */
  tool: string;
  /** `mcp.session.id` (Streamable HTTP), when there is a session. */
  sessionId?: string;
  /** `jsonrpc.request.id`, when known. */
  requestId?: string | number;
  /** `pipe` (stdio) or `tcp` (Streamable HTTP). */
  transport?: "pipe" | "tcp";
  /** The configured name of the upstream server (client side). */
  server?: string;
}

/**
 * A client `tools/call {tool}` span around an upstream MCP call; `call` gets the `_meta` to send with the
 * request (the span's `traceparent`), or undefined when no tracer is registered. A result with `isError`
 * is recorded as `error.type` `tool_error`; a throw with its code.
 */
export async function traceMcpClientCall<T>(
  input: McpCallSpanInput,
  call: (meta: TraceCarrier | undefined) => Promise<T>,
): Promise<T> {
  const tracer = activeTracer();
  if (tracer === undefined) return call(undefined);
  const span = tracer.startSpan(mcpToolsCallSpanName(input.tool), {
    kind: SpanKind.CLIENT,
    attributes: mcpAttributes(input),
  });
  const active = trace.setSpan(context.active(), span);
  return finishMcpSpan(span, () => context.with(active, () => call(injectTraceContext(active))));
}

/**
 * A server `tools/call {tool}` span for a call `mcp serve` received, continuing the trace the client passed
 * in `params._meta` (`traceparent`) when it did; `work` runs with it as the active context.
 */
export async function traceMcpServerCall<T>(
  input: McpCallSpanInput & { meta: unknown },
  work: () => Promise<T>,
): Promise<T> {
  const tracer = activeTracer();
  if (tracer === undefined) return work();
  const parent: Context = extractTraceContext(input.meta);
  const span = tracer.startSpan(
    mcpToolsCallSpanName(input.tool),
    { kind: SpanKind.SERVER, attributes: mcpAttributes(input) },
    parent,
  );
  return finishMcpSpan(span, () => context.with(trace.setSpan(parent, span), work));
}

async function finishMcpSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    if ((result as { isError?: unknown } | undefined)?.isError === true) markSpanFailed(span, "tool_error");
    return result;
  } catch (error) {
    markSpanFailed(span, errorTypeOf(error));
    throw error;
  } finally {
    span.end();
  }
}

function mcpAttributes(input: McpCallSpanInput): Attributes {
  const attributes: Attributes = {
    [Attribute.mcpMethodName]: MCP_TOOLS_CALL,
    [Attribute.operationName]: Operation.executeTool,
    [Attribute.toolName]: input.tool,
  };
  if (input.sessionId !== undefined) attributes[Attribute.mcpSessionId] = input.sessionId;
  if (input.requestId !== undefined) attributes[Attribute.jsonrpcRequestId] = String(input.requestId);
  if (input.transport !== undefined) attributes[Attribute.networkTransport] = input.transport;
  if (input.server !== undefined) attributes[Attribute.mcpServer] = input.server;
  return attributes;
}
