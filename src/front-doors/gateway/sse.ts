import type { Context } from "hono";

/** One server-sent event: `event:` names it when the API does (Responses), `data:` carries the JSON. */
export type SseFrame = { event?: string; data: unknown } | { done: true };

const encoder = new TextEncoder();

/** The wire text of one frame; `{ done: true }` is Chat Completions' closing `data: [DONE]`. */
export function formatSseFrame(frame: SseFrame): string {
  if ("done" in frame) return "data: [DONE]\n\n";
  const data = `data: ${JSON.stringify(frame.data)}\n\n`;
  return frame.event === undefined ? data : `event: ${frame.event}\n${data}`;
}

/**
 * A `text/event-stream` response whose body is `frames`, written as the client reads: each frame is pulled
 * only when the previous one was taken. A client that goes away cancels the body, which returns the
 * generator (its `finally` runs); the run itself is cancelled by the request's signal (`run-cancellation.ts`).
 */
export function sseResponse(c: Context, frames: AsyncGenerator<SseFrame>): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await frames.next();
      if (next.done === true) controller.close();
      else controller.enqueue(encoder.encode(formatSseFrame(next.value)));
    },
    async cancel() {
      await frames.return(undefined);
    },
  });
  c.header("Content-Type", "text/event-stream; charset=utf-8");
  c.header("Cache-Control", "no-cache");
  c.header("X-Accel-Buffering", "no");
  return c.body(body, 200);
}
