import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/** One span as the OTLP/HTTP JSON exporter posts it, with its attributes decoded to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  serviceName: unknown;
}

/** A real OTLP/HTTP receiver on 127.0.0.1 (an ephemeral port) that keeps what the exporters post. */
export interface OtlpReceiver {
  /** The base URL for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  endpoint: string;
  /** Every request body received, as text (for the "no secret anywhere" checks). */
  bodies(): string[];
  spans(): ReceivedSpan[];
  /** Names of every metric received. */
  metricNames(): string[];
  /** Resolves once `ready()` is true, checking after each post; rejects after `boundMs` (a bound, not a timing). */
  waitFor(ready: () => boolean, what: string, boundMs?: number): Promise<void>;
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

/** Starts the receiver. Answers every POST `{}` (200), as a collector does. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const traces: unknown[] = [];
  const metrics: unknown[] = [];
  const waiters = new Set<() => void>();
  const server = createServer(async (request, response) => {
    const text = await readBody(request);
    bodies.push(text);
    const parsed: unknown = JSON.parse(text);
    if (request.url === "/v1/traces") traces.push(parsed);
    if (request.url === "/v1/metrics") metrics.push(parsed);
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bodies: () => [...bodies],
    spans: () => traces.flatMap(spansOf),
    metricNames: () => [...new Set(metrics.flatMap(metricNamesOf))],
    waitFor(ready, what, boundMs = 20_000) {
      if (ready()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!ready()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the receiver did not get ${what} within ${boundMs} ms`));
        }, boundMs);
        waiters.add(check);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return (request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
}

function spansOf(body: unknown): ReceivedSpan[] {
  const resourceSpans = (body as { resourceSpans?: unknown[] }).resourceSpans ?? [];
  return resourceSpans.flatMap((resourceSpan) => {
    const typed = resourceSpan as {
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: { spans?: Record<string, unknown>[] }[];
    };
    const serviceName = decode(typed.resource?.attributes ?? [])["service.name"];
    return (typed.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: String(span.traceId),
        spanId: String(span.spanId),
        parentSpanId: String(span.parentSpanId ?? ""),
        name: String(span.name),
        kind: Number(span.kind),
        attributes: decode((span.attributes as KeyValue[] | undefined) ?? []),
        status: (span.status as ReceivedSpan["status"] | undefined) ?? {},
        serviceName,
      })),
    );
  });
}

function metricNamesOf(body: unknown): string[] {
  const resourceMetrics = (body as { resourceMetrics?: unknown[] }).resourceMetrics ?? [];
  return resourceMetrics.flatMap((resource) =>
    ((resource as { scopeMetrics?: { metrics?: { name: string }[] }[] }).scopeMetrics ?? []).flatMap(
      (scope) => (scope.metrics ?? []).map((metric) => metric.name),
    ),
  );
}

function decode(attributes: KeyValue[]): Record<string, unknown> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, plainValue(value)]));
}

function plainValue(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plainValue);
  return undefined;
}
