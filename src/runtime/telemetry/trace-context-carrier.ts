import { type Context, context, propagation, ROOT_CONTEXT, type TextMapGetter } from "@opentelemetry/api";
import { activeTracer } from "./telemetry-on.js";

/** W3C trace context fields as they travel in a carrier (MCP `params._meta`, HTTP headers). */
export type TraceCarrier = { traceparent?: string; tracestate?: string };

/**
 * The `traceparent` (and `tracestate`) of `active` as the registered propagator writes them (W3C trace
 * context once telemetry started), or undefined when there is nothing to pass on.
 */
export function injectTraceContext(active: Context = context.active()): TraceCarrier | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  if (typeof carrier.traceparent !== "string") return undefined;
  return {
    traceparent: carrier.traceparent,
    ...(typeof carrier.tracestate === "string" ? { tracestate: carrier.tracestate } : {}),
  };
}

const recordGetter: TextMapGetter<unknown> = {
  keys: (carrier) => (carrier && typeof carrier === "object" ? Object.keys(carrier) : []),
  get(carrier, key) {
    if (!carrier || typeof carrier !== "object") return undefined;
    const value: unknown = (carrier as Record<string, unknown>)[key];
    return typeof value === "string" ? value : undefined;
  },
};

/**
 * The context a remote caller passed in `carrier` (an MCP request's `_meta`, an object of string fields,
 * untrusted): its span becomes the parent of ours. Without a valid `traceparent`, `fallback`.
 */
export function extractTraceContext(carrier: unknown, fallback: Context = context.active()): Context {
  if (!carrier || typeof carrier !== "object" || typeof recordGetter.get(carrier, "traceparent") !== "string")
    return fallback;
  return propagation.extract(ROOT_CONTEXT, carrier, recordGetter);
}

/** Runs `work` in the trace an incoming request's headers carry (`traceparent`), when there is one and tracing is on. */
export function withIncomingTrace<T>(header: (name: string) => string | undefined, work: () => T): T {
  const traceparent = activeTracer() === undefined ? undefined : header("traceparent");
  if (traceparent === undefined) return work();
  const tracestate = header("tracestate");
  const parent = extractTraceContext(
    { traceparent, ...(tracestate === undefined ? {} : { tracestate }) },
    context.active(),
  );
  return context.with(parent, work);
}
